#pragma once
// A fixed pool of worker threads with a blocking parallel_for. Work items are indexed, and each
// item writes only its own slot, so results are collected in index order whatever the thread
// count (determinism across --threads).
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace fbosim::core {

class ThreadPool {
 public:
  /// threads <= 1 runs everything on the calling thread. Throws std::runtime_error naming the
  /// thread count when the system cannot start a thread.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return threads_; }
  /// Calls body(i) for i in [0, n) and returns when all are done. The exception of the lowest
  /// item that threw is rethrown here (after every started item has finished; items not
  /// started by then are skipped), the one a single thread would throw.
  void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body);

  /// The number of hardware threads (at least 1).
  static int hardware_threads();

 private:
  void worker_loop();
  void stop_workers();
  void run_items();

  int threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* body_ = nullptr;
  std::size_t n_ = 0;
  std::size_t next_ = 0;
  std::size_t finished_ = 0;
  std::size_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  std::size_t error_index_ = 0;  ///< the item error_ came from
};

}  // namespace fbosim::core

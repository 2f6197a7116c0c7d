#include "core/thread_pool.hpp"

#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace fbosim::core {

int ThreadPool::hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

ThreadPool::ThreadPool(int threads) : threads_(threads < 1 ? 1 : threads) {
  // The calling thread also works, so a pool of k threads starts k - 1 workers. When the
  // system refuses a thread (a process or memory limit), the started workers are stopped and
  // joined before the error leaves: a joinable std::thread would otherwise terminate the
  // process.
  for (int i = 1; i < threads_; ++i) {
    try {
      workers_.emplace_back([this] { worker_loop(); });
    } catch (const std::system_error& e) {
      stop_workers();
      throw std::runtime_error(fmt::format(
          "cannot start thread {} of the {} requested (--threads {}): {}; use fewer threads", i + 1,
          threads_, threads_, e.code().message()));
    }
  }
}

ThreadPool::~ThreadPool() { stop_workers(); }

void ThreadPool::stop_workers() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
  workers_.clear();
}

void ThreadPool::run_items() {
  // Called with mutex_ held; releases it while running an item.
  std::unique_lock lock(mutex_, std::adopt_lock);
  while (next_ < n_) {
    if (error_) {  // an error (an interrupt included): the items not started are skipped
      finished_ += n_ - next_;
      next_ = n_;
      break;
    }
    const std::size_t i = next_++;
    lock.unlock();
    try {
      (*body_)(i);
    } catch (...) {
      // The error of the lowest item, as on one thread: every item below i started before it
      // and finishes, so the same message whatever the thread count.
      std::lock_guard g(mutex_);
      if (!error_ || i < error_index_) {
        error_ = std::current_exception();
        error_index_ = i;
      }
    }
    lock.lock();
    ++finished_;
  }
  if (finished_ == n_) done_.notify_all();
  lock.release();
}

void ThreadPool::worker_loop() {
  std::size_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    ++busy_;
    lock.release();  // run_items adopts the held mutex and returns with it held
    run_items();
    lock = std::unique_lock(mutex_, std::adopt_lock);
    --busy_;
    done_.notify_all();
  }
}

void ThreadPool::parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
  if (n == 0) return;
  if (workers_.empty()) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  std::unique_lock lock(mutex_);
  body_ = &body;
  n_ = n;
  next_ = 0;
  finished_ = 0;
  error_ = nullptr;
  error_index_ = 0;
  ++generation_;
  wake_.notify_all();
  lock.release();
  run_items();
  lock = std::unique_lock(mutex_, std::adopt_lock);
  done_.wait(lock, [&] { return finished_ == n_ && busy_ == 0; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

}  // namespace fbosim::core

#pragma once
// A pool of WorkerProcess running one command: an evaluation takes an idle worker (starting a
// new one while fewer than `max` live), and gives it back after a good answer; a worker that
// failed is dropped (killed and reaped) and replaced on demand. Agents evaluated in parallel by
// the engine's threads each hold their own worker, so a program runs one query at a time.
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "datasets/command/worker_process.hpp"

namespace fbosim::datasets::command {

class WorkerPool {
 public:
  /// max: the most processes alive at once (0: as many as evaluations run at once).
  WorkerPool(std::string command, int max) : command_(std::move(command)), max_(max) {}

  /// An idle worker or a new one; waits while `max` are busy (throws core::Cancelled on
  /// Ctrl-C, std::runtime_error when the command cannot be started).
  std::unique_ptr<WorkerProcess> acquire();
  /// Gives a worker back (null: it was dropped).
  void release(std::unique_ptr<WorkerProcess> worker);
  const std::string& command() const { return command_; }

 private:
  std::string command_;
  int max_;
  std::mutex mutex_;
  std::condition_variable free_;
  std::vector<std::unique_ptr<WorkerProcess>> idle_;
  int live_ = 0;
};

}  // namespace fbosim::datasets::command

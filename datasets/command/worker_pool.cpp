#include "datasets/command/worker_pool.hpp"

#include "core/cancellation.hpp"

namespace fbosim::datasets::command {

std::unique_ptr<WorkerProcess> WorkerPool::acquire() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (!idle_.empty()) {
        auto w = std::move(idle_.back());
        idle_.pop_back();
        return w;
      }
      if (max_ == 0 || live_ < max_) break;
      free_.wait_for(lock, std::chrono::milliseconds(50));
      core::throw_if_cancelled();
    }
    ++live_;
  }
  try {
    return std::make_unique<WorkerProcess>(command_);
  } catch (...) {
    release(nullptr);
    throw;
  }
}

void WorkerPool::release(std::unique_ptr<WorkerProcess> worker) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (worker)
      idle_.push_back(std::move(worker));
    else
      --live_;
  }
  free_.notify_one();
}

}  // namespace fbosim::datasets::command

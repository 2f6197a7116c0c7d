#pragma once
// Cooperative cancellation of long computations. One process-wide flag, set by fbosim's
// SIGINT/SIGTERM handler (sim/output/interrupt.hpp) and polled by long loops anywhere
// (algorithms/ and datasets/ depend only on this, never on the rest of sim/): a poll is one relaxed
// atomic load, so loops may poll every iteration that costs more than a few hundred
// instructions, and every few thousand iterations otherwise (CancellationPoll).
#include <atomic>
#include <stdexcept>
#include <string>

namespace fbosim::core {

/// Thrown by a computation that stopped because cancellation was requested. Code that catches
/// std::exception to recover from a numerical failure must rethrow it (a stop is not a failure).
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("interrupted; no output was written") {}
  explicit Cancelled(const std::string& what) : std::runtime_error(what) {}
};

namespace detail {
inline std::atomic<bool> cancel_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
}  // namespace detail

/// Asks every polling computation to stop (async-signal-safe).
inline void request_cancellation() noexcept {
  detail::cancel_requested.store(true, std::memory_order_relaxed);
}
/// Clears the request (tests; a process that was interrupted does not go on computing).
inline void reset_cancellation() noexcept {
  detail::cancel_requested.store(false, std::memory_order_relaxed);
}
inline bool cancellation_requested() noexcept {
  return detail::cancel_requested.load(std::memory_order_relaxed);
}
/// Throws Cancelled if cancellation was requested.
inline void throw_if_cancelled() {
  if (cancellation_requested()) throw Cancelled();
}

/// A poll for tight loops: checks the flag once every `Every` calls.
template <unsigned Every = 4096>
class CancellationPoll {
 public:
  void operator()() {
    if (++count_ % Every == 0) throw_if_cancelled();
  }

 private:
  unsigned count_ = 0;
};

}  // namespace fbosim::core

#pragma once
// Ctrl-C and SIGTERM. fbosim's main installs the handlers first thing, for every command:
//   - the first SIGINT/SIGTERM requests cancellation (core::request_cancellation): long loops
//     poll it and throw Interrupted, so a run unwinds normally, keeps its finished runs'
//     checkpoints and removes what it created (no half-written file ever has a final name);
//   - a watchdog thread then gives that cooperative stop kStopGrace; a computation that
//     cannot be polled (one big library call, such as an Eigen factorisation) or a second
//     signal makes it exit the process itself: it waits for any AtomicFile commit in progress,
//     runs the registered ExitCleanup actions (remove what was created and is empty, a lock
//     file, a named temporary), prints one line and exits with 128 + the signal (130 for
//     SIGINT, 143 for SIGTERM), as the shell reports a process killed by it. Files written
//     through AtomicFile are unnamed until committed, so such an exit leaves no partial file;
//     finished checkpoints stay for a resume.
//   - SIGXFSZ is ignored, so a write beyond `ulimit -f` fails with EFBIG and is reported like a
//     full disk (a clean error naming the file) instead of killing the process mid-way.
#include <functional>

#include "core/cancellation.hpp"

namespace fbosim::output {

/// Thrown when an interrupt was requested (the same type as core::Cancelled, so a stop deep in
/// algorithms/ or datasets/ is caught wherever an interrupted run is).
using Interrupted = core::Cancelled;

/// The longest the cooperative stop is given before the watchdog exits the process (s).
inline constexpr double kStopGrace = 0.5;

/// Installs the SIGINT/SIGTERM handlers and the watchdog, and ignores SIGXFSZ (idempotent).
void install_interrupt_handlers();
/// True once a handled signal arrived (or cancellation was requested otherwise).
bool interrupt_requested();
/// The signal that requested the interrupt (SIGINT or SIGTERM), 0 if none arrived.
int interrupt_signal();
/// Throws Interrupted if interrupt_requested().
void check_interrupt();
/// 128 + interrupt_signal(): the exit status of an interrupted fbosim (1 if no signal arrived).
int interrupted_exit_status();

/// An action the watchdog runs if it ends the process (in reverse order of registration),
/// registered for the object's lifetime. Actions run on the watchdog's thread while other threads
/// may still be computing: they must only remove things (rmdir of an empty directory, unlink of a
/// file this process owns), never wait for the code that registered them.
class ExitCleanup {
 public:
  explicit ExitCleanup(std::function<void()> action);
  ~ExitCleanup();
  ExitCleanup(const ExitCleanup&) = delete;
  ExitCleanup& operator=(const ExitCleanup&) = delete;

 private:
  unsigned long long id_;
};

/// Serialises AtomicFile commits with the watchdog's exit: while one is held (recursively), the
/// watchdog waits, so the files committed together under one lock are all or none in place.
class CommitLock {
 public:
  CommitLock();
  ~CommitLock();
  CommitLock(const CommitLock&) = delete;
  CommitLock& operator=(const CommitLock&) = delete;
};

}  // namespace fbosim::output

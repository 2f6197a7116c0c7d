#pragma once
// Ctrl-C and SIGTERM. fbosim installs the handlers before any constructor runs (its
// .preinit_array, sim/cli/main.cpp) and the watchdog first thing in main, for every command;
// a signal at any moment after the dynamic loader has mapped the libraries (a few
// milliseconds after exec(2), before any code of fbosim runs) ends it with 128 + the signal:
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
//   - a command that ends on its own after a signal came (it had finished, or failed
//     otherwise) exits with 128 + the signal too, saying so (main.cpp): any signal, any
//     moment, one status;
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

/// Installs the SIGINT/SIGTERM handlers and ignores SIGXFSZ (idempotent), with C library calls
/// only: fbosim calls it before any constructor runs (sim/cli/main.cpp), so that a signal during
/// the program's start is handled like any other. A signal that comes before the watchdog is
/// started waits for it.
void install_signal_handlers();
/// install_signal_handlers() and the watchdog (idempotent).
void install_interrupt_handlers();
/// "SIGINT (Ctrl-C)" or "SIGTERM" for the signal that requested the interrupt.
const char* interrupt_signal_name();
/// True once a handled signal arrived (or cancellation was requested otherwise).
bool interrupt_requested();
/// The signal that requested the interrupt (SIGINT or SIGTERM), 0 if none arrived.
int interrupt_signal();
/// Throws Interrupted if interrupt_requested().
void check_interrupt();
/// 128 + interrupt_signal(): the exit status of an interrupted fbosim (1 if no signal arrived).
int interrupted_exit_status();
/// The command's status is final (the last exit handler checked for a signal): from now on a
/// SIGINT or SIGTERM ends the process from the handler, saying the command had ended, with
/// 128 + the signal, as a signal before the check does (no window where one is lost).
void end_with_status(int status);

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

#pragma once
// One child process running a user's command (`/bin/sh -c [exec] <command>`), talked to by
// lines: a request on its stdin, one answer line on its stdout, its stderr kept as a tail for
// messages. The child dies with fbosim (PR_SET_PDEATHSIG, set by a fork on a thread that lives
// as long as the process), runs in its own process group (a terminal's Ctrl-C reaches fbosim,
// which then ends it) and inherits no other descriptor.
#include <sys/types.h>

#include <chrono>
#include <string>

namespace fbosim::datasets::command {

class WorkerProcess {
 public:
  /// Starts the command; throws std::runtime_error when it cannot be started.
  explicit WorkerProcess(const std::string& command);
  /// Closes its stdin (a well-behaved program then exits), waits up to 0.2 s, kills it.
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  /// The outcome of one exchange.
  enum class Status { ok, exited, timed_out, cancelled, too_long };
  /// Sends `request` (one line, with its '\n') and reads one line back into `answer` (without
  /// its '\n') within `timeout`, polling core::cancellation_requested() every 50 ms. Anything
  /// but ok leaves the process killed and reaped (the caller drops the worker).
  Status exchange(const std::string& request, std::string& answer,
                  std::chrono::duration<double> timeout);
  /// How the process ended ("exited with status 1", "killed by signal 9"), after exchange
  /// returned `exited`.
  const std::string& exit_text() const { return exit_text_; }
  /// The last bytes (at most 2,000) it wrote to stderr.
  std::string stderr_tail() const;
  pid_t pid() const { return pid_; }

 private:
  void start(const std::string& command);  // fork + exec, on the spawner thread
  void kill_and_reap();
  void drain_stderr();
  bool write_all(const std::string& data);

  pid_t pid_ = -1;
  int io_ = -1;          // our end of the stdin/stdout socket pair
  int err_ = -1;         // the read end of its stderr pipe
  std::string pending_;  // bytes read past the last answer line
  std::string stderr_;
  std::string exit_text_;
};

}  // namespace fbosim::datasets::command

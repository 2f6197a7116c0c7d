#pragma once
// One child process running a user's command (`/bin/sh -c [exec] <command>`), talked to by
// lines: a request on its stdin, exactly one answer line on its stdout, its stderr kept as a
// tail for messages. An answer must follow its request: output waiting before a request is
// sent, a line that arrives while the program has not yet read its request, or a second line
// after the answer are refused (issue 39: a program out of step with its queries attributed
// every later answer to the wrong query). The child dies with fbosim (PR_SET_PDEATHSIG, set by a
// fork on a thread that lives as long as the process), runs in its own process group (a terminal's
// Ctrl-C reaches fbosim, which then ends it) and inherits no other descriptor.
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
  /// unsolicited: output was waiting before the request was sent, or a line arrived while the
  /// program had not read the request yet (SIOCOUTQ: bytes of ours still unread); extra: more
  /// output followed the answer line. Both leave the offending line in `answer`.
  enum class Status { ok, exited, timed_out, cancelled, too_long, unsolicited, extra };
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
  /// The id of the next query (1, 2, ...: unique within this process), which the request
  /// carries and the answer echoes.
  long long next_query_id() { return ++queries_; }

 private:
  void start(const std::string& command);  // fork + exec, on the spawner thread
  void kill_and_reap();
  void drain_stderr();
  bool write_all(const std::string& data);
  bool read_waiting();          // appends what it already wrote to pending_ (no wait)
  bool request_unread() const;  // whether bytes we sent are still unread by the program
  std::string first_line() const;

  pid_t pid_ = -1;
  int io_ = -1;          // our end of the stdin/stdout socket pair
  int err_ = -1;         // the read end of its stderr pipe
  std::string pending_;  // bytes read past the last answer line
  std::string stderr_;
  std::string exit_text_;
  long long queries_ = 0;
};

}  // namespace fbosim::datasets::command

#include "datasets/command/worker_process.hpp"

#include <fcntl.h>
#include <linux/sockios.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/cancellation.hpp"

namespace fbosim::datasets::command {

namespace {
constexpr std::size_t kTail = 2000;
constexpr std::size_t kMaxLine = 1 << 20;  // an answer is one short line
}  // namespace

// fork + exec rather than posix_spawn: the child must set PR_SET_PDEATHSIG (no orphan when
// fbosim is killed) and its own process group. Between fork and exec the child calls only
// async-signal-safe functions. stdin/stdout are one socket pair, so that writing to a child
// that died is EPIPE (send with MSG_NOSIGNAL), never a SIGPIPE that would end fbosim.
namespace {
// A simple command (no shell operator) is run as `exec <command>`: the program replaces the
// shell, so that it is fbosim's own child (PR_SET_PDEATHSIG reaches it; a shell would leave it
// a grandchild) and its closing stdout is an EOF. Pipelines and lists keep their shell.
std::string shell_line(const std::string& command) {
  return command.find_first_of(";&|()<>`$\n") == std::string::npos ? "exec " + command : command;
}
}  // namespace

// PR_SET_PDEATHSIG fires when the *thread* that forked ends, not the process: a worker started
// by an engine thread would be killed when that thread ends while the pool keeps the worker
// (a run's threads, the Python module's thread per run). So every fork happens on one thread
// that lives as long as the process (never destroyed: it may still wait at exit).
class Spawner {
 public:
  static Spawner& instance() {
    static Spawner* s = new Spawner;  // leaked on purpose: its thread outlives static destructors
    return *s;
  }
  void run(const std::function<void()>& job) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::uint64_t ticket = ++submitted_;
    jobs_.push_back(&job);
    wake_.notify_all();
    done_.wait(lock, [&] { return finished_ >= ticket; });
  }

 private:
  Spawner() {
    std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      for (;;) {
        wake_.wait(lock, [&] { return !jobs_.empty(); });
        const std::function<void()>* job = jobs_.front();
        jobs_.pop_front();
        lock.unlock();
        (*job)();  // never throws: the job keeps its own error
        lock.lock();
        ++finished_;
        done_.notify_all();
      }
    }).detach();
  }
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<const std::function<void()>*> jobs_;
  std::uint64_t submitted_ = 0, finished_ = 0;
};

WorkerProcess::WorkerProcess(const std::string& command) {
  std::string error;
  Spawner::instance().run([&] {
    try {
      start(command);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  if (!error.empty()) throw std::runtime_error(error);
}

void WorkerProcess::start(const std::string& command) {
  const std::string line = shell_line(command);
  int io[2], err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, io) != 0)
    throw std::runtime_error(std::string("objective.command: socketpair: ") + std::strerror(errno));
  if (pipe2(err, O_CLOEXEC) != 0) {
    const int e = errno;
    close(io[0]);
    close(io[1]);
    throw std::runtime_error(std::string("objective.command: pipe: ") + std::strerror(e));
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // fbosim died before prctl
    setpgid(0, 0);
    dup2(io[1], 0);
    dup2(io[1], 1);
    dup2(err[1], 2);
    execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const int e = errno;
  close(io[1]);
  close(err[1]);
  if (pid < 0) {
    close(io[0]);
    close(err[0]);
    throw std::runtime_error(std::string("objective.command: fork: ") + std::strerror(e));
  }
  pid_ = pid;
  io_ = io[0];
  err_ = err[0];
  fcntl(err_, F_SETFL, fcntl(err_, F_GETFL) | O_NONBLOCK);
}

WorkerProcess::~WorkerProcess() {
  if (pid_ <= 0) return;
  shutdown(io_, SHUT_WR);  // EOF on its stdin
  for (int i = 0; i < 20; ++i) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (pid_ > 0) kill_and_reap();
  close(io_);
  close(err_);
}

void WorkerProcess::kill_and_reap() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);  // its process group: the shell and what it started
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

void WorkerProcess::drain_stderr() {
  char buf[4096];
  for (;;) {
    const ssize_t n = read(err_, buf, sizeof buf);
    if (n <= 0) return;
    stderr_.append(buf, static_cast<std::size_t>(n));
    if (stderr_.size() > 4 * kTail) stderr_.erase(0, stderr_.size() - kTail);
  }
}

std::string WorkerProcess::stderr_tail() const {
  return stderr_.size() <= kTail ? stderr_ : "..." + stderr_.substr(stderr_.size() - kTail);
}

bool WorkerProcess::write_all(const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = send(io_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool WorkerProcess::read_waiting() {
  for (;;) {
    char buf[8192];
    const ssize_t n = recv(io_, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0) {
      pending_.append(buf, static_cast<std::size_t>(n));
      if (pending_.size() > kMaxLine) return true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return !pending_.empty();  // EOF or nothing more: a dead program is found by exchange
  }
}

// SIOCOUTQ on a Unix stream socket: the bytes we sent that the peer has not read yet. A line
// that arrives while our request is unread cannot be its answer (a program reads its whole
// request line before answering it).
bool WorkerProcess::request_unread() const {
  int unread = 0;
  return ioctl(io_, SIOCOUTQ, &unread) == 0 && unread > 0;
}

std::string WorkerProcess::first_line() const {
  std::string line = pending_.substr(0, pending_.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

WorkerProcess::Status WorkerProcess::exchange(const std::string& request, std::string& answer,
                                              std::chrono::duration<double> timeout) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(timeout);
  const auto ended = [&] {
    // Collect what it wrote to stderr after dying, then its exit status.
    // An EOF from a process that lives on (it closed its stdout) is given 0.2 s, then killed.
    int status = 0;
    pid_t r = 0;
    for (int i = 0; i < 20 && r == 0; ++i) {
      r = waitpid(pid_, &status, WNOHANG);
      if (r == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (r == 0) {
      kill_and_reap();
      exit_text_ = "closed its stdout without an answer";
      return Status::exited;
    }
    pid_ = -1;
    for (int i = 0; i < 10; ++i) {
      pollfd p{err_, POLLIN, 0};
      if (poll(&p, 1, 10) <= 0) break;
      const std::size_t before = stderr_.size();
      drain_stderr();
      if (stderr_.size() == before) break;
    }
    if (r < 0)
      exit_text_ = "ended";
    else if (WIFEXITED(status))
      exit_text_ = "exited with status " + std::to_string(WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
      exit_text_ = std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ")";
    else
      exit_text_ = "ended";
    return Status::exited;
  };
  // Output before the request: an answer to no query (a second line for the previous one, or
  // output before the first), which would otherwise be read as this query's answer.
  const auto refuse = [&](Status why) {
    answer = first_line();
    kill_and_reap();
    return why;
  };
  if (read_waiting()) return refuse(Status::unsolicited);
  if (!write_all(request)) return ended();
  for (;;) {
    if (const auto nl = pending_.find('\n'); nl != std::string::npos) {
      if (request_unread()) return refuse(Status::unsolicited);
      answer = first_line();
      pending_.erase(0, nl + 1);
      if (!pending_.empty()) return refuse(Status::extra);
      return Status::ok;
    }
    if (pending_.size() > kMaxLine) {
      kill_and_reap();
      return Status::too_long;
    }
    if (core::cancellation_requested()) {
      kill_and_reap();
      return Status::cancelled;
    }
    const auto now = clock::now();
    if (now >= deadline) {
      kill_and_reap();
      return Status::timed_out;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    pollfd fds[2] = {{io_, POLLIN, 0}, {err_, POLLIN, 0}};
    const int ready = poll(fds, 2, static_cast<int>(std::clamp<long long>(left + 1, 1, 50)));
    if (ready < 0 && errno != EINTR) return ended();
    if (fds[1].revents) drain_stderr();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char buf[8192];
      const ssize_t n = recv(io_, buf, sizeof buf, 0);
      if (n > 0)
        pending_.append(buf, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR)
        return ended();  // EOF: it closed its stdout or died
    }
  }
}

}  // namespace fbosim::datasets::command

#include "sim/output/interrupt.hpp"

#include <semaphore.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <ctime>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace fbosim::output {

namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
sem_t g_wake;  // posted by the handler at every signal (sem_post is async-signal-safe)
std::once_flag g_installed;
std::atomic<bool> g_handlers{false};
// Once the command's status is final (the last exit handler ran its check): the status, so
// that a signal from then on ends the process from the handler itself, with the message and
// 128 + the signal, instead of setting a flag nobody reads any more. -1 before.
std::atomic<int> g_final_status{-1};
static_assert(std::atomic<int>::is_always_lock_free, "read in a signal handler");

// The message of a signal that came as the process was ending (write(2): async-signal-safe).
void write_ending_message(int sig, int status) {
  const char* what = sig == SIGINT ? "SIGINT (Ctrl-C)" : sig == SIGTERM ? "SIGTERM" : "a signal";
  const char* how = status == 0 ? "it had finished: what it printed and wrote is complete"
                                : "it had failed, as reported above";
  for (const char* part :
       {"fbosim: error: interrupted by ", what, " as the command ended (", how, ")\n"}) {
    std::size_t n = 0;
    while (part[n] != '\0') ++n;
    if (::write(STDERR_FILENO, part, n) < 0) return;  // nowhere to report it: the status says it
  }
}

// Never destroyed: the watchdog may use them while the main thread runs static destructors.
struct Registry {
  std::mutex mutex;
  unsigned long long next = 0;
  std::vector<std::pair<unsigned long long, std::function<void()>>> actions;
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}
std::recursive_timed_mutex& commit_mutex() {
  static auto* m = new std::recursive_timed_mutex;
  return *m;
}

extern "C" void on_signal(int sig) {
  if (const int status = g_final_status.load(); status >= 0) {
    write_ending_message(sig, status);
    ::_exit(128 + sig);
  }
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
  core::request_cancellation();
  sem_post(&g_wake);
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT (Ctrl-C)" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

// Ends the process when the cooperative stop did not come in time (or at a second signal).
[[noreturn]] void abrupt_exit() {
  const int sig = g_signal.load();
  // No commit half-done: wait for one in progress (bounded, for a hung file system) and let no
  // other begin.
  const bool held = commit_mutex().try_lock_for(std::chrono::seconds(2));
  bool cleaned = false;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto it = r.actions.rbegin(); it != r.actions.rend(); ++it) {
      try {
        it->second();
      } catch (...) {  // removing what we can is all that is left to do
      }
      cleaned = true;
    }
  }
  const std::string line =
      std::string("fbosim: error: interrupted by ") + signal_name(sig) +
      (cleaned ? "; stopped without waiting for the computation in progress: finished runs and "
                 "sweep points are kept (the same command resumes them), nothing else was left\n"
               : "\n");
  if (::write(STDERR_FILENO, line.data(), line.size()) < 0) {
    // nowhere left to report it: the exit status says it
  }
  (void)held;
  ::_exit(128 + (sig > 0 ? sig : SIGTERM));
}

void watchdog() {
  while (sem_wait(&g_wake) != 0) {
  }
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  const auto grace = std::chrono::duration<double>(kStopGrace);
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(grace).count();
  deadline.tv_sec += static_cast<time_t>(ns / 1000000000);
  deadline.tv_nsec += static_cast<long>(ns % 1000000000);
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_nsec -= 1000000000;
    ++deadline.tv_sec;
  }
  // A second signal ends the wait at once; otherwise the grace runs out.
  while (sem_clockwait(&g_wake, CLOCK_MONOTONIC, &deadline) != 0 && errno == EINTR) {
  }
  abrupt_exit();
}

}  // namespace

void install_signal_handlers() {
  // Plain C library calls only: this runs before any constructor (sim/cli/main.cpp).
  if (g_handlers.exchange(true)) return;
  sem_init(&g_wake, 0, 0);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGXFSZ, SIG_IGN);
}

void install_interrupt_handlers() {
  install_signal_handlers();
  std::call_once(g_installed, [] {
    try {  // a signal that came before this is waiting for it in g_wake: the grace starts now
      std::thread(watchdog).detach();
    } catch (const std::exception&) {
      // No thread to spare (a process limit): the flag alone still stops cooperative code.
    }
  });
}

const char* interrupt_signal_name() { return signal_name(g_signal.load()); }

bool interrupt_requested() { return core::cancellation_requested(); }

int interrupt_signal() { return g_signal.load(); }

void check_interrupt() { core::throw_if_cancelled(); }

void end_with_status(int status) { g_final_status.store(status < 0 ? 1 : status); }

int interrupted_exit_status() {
  const int sig = g_signal.load();
  return sig > 0 ? 128 + sig : 1;
}

ExitCleanup::ExitCleanup(std::function<void()> action) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  id_ = r.next++;
  r.actions.emplace_back(id_, std::move(action));
}

ExitCleanup::~ExitCleanup() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto it = r.actions.begin(); it != r.actions.end(); ++it)
    if (it->first == id_) {
      r.actions.erase(it);
      break;
    }
}

CommitLock::CommitLock() { commit_mutex().lock(); }
CommitLock::~CommitLock() { commit_mutex().unlock(); }

}  // namespace fbosim::output

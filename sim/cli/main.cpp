// fbosim: differentially private federated Bayesian optimisation simulator.
#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/config/resource_estimate.hpp"
#include "sim/output/interrupt.hpp"

namespace {

// A closed standard descriptor is given /dev/null, read-only: a file fbosim opens later can then
// never become its stdout (the summary would be written into it), and writes to a closed stdout
// or stderr fail (EBADF) and are reported like any other write error.
void occupy_closed_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    const int got = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

// The exit status once the command is done: a failed write to stdout (a full disk, a closed
// stdout, a pipe whose reader left while SIGPIPE is ignored) is an error of its own, since the
// user did not get the output; a failed write to stderr (warnings, the progress line) too, with
// nowhere left to say so.
int with_output_checked(int status) {
  std::cout.flush();
  errno = 0;
  const bool out_ok = std::fflush(stdout) == 0 && !std::ferror(stdout) && !std::cout.fail();
  if (!out_ok) {
    // The cause is known when the last flush failed (stdio keeps no errno of an earlier one).
    const int mode = ::fcntl(STDOUT_FILENO, F_GETFL);
    const std::string cause = errno != 0 ? std::strerror(errno)
                              : mode >= 0 && (mode & O_ACCMODE) == O_RDONLY
                                  ? "it is closed"
                                  : "a write failed (a full disk, a file-size limit or a closed "
                                    "pipe)";
    std::fprintf(stderr, "fbosim: error: cannot write to standard output: %s\n", cause.c_str());
    if (status == 0) status = 1;
  }
  if ((std::fflush(stderr) != 0 || std::ferror(stderr)) && status == 0) status = 1;
  return status;
}

// An error's exit status: 128 + the signal after Ctrl-C or SIGTERM (130, 143; the message
// says what was kept), else 1. Running out of memory says what bounds it (the estimate that
// refuses an experiment counts only its largest terms).
int error_status(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    std::fprintf(stderr,
                 "fbosim: error: out of memory (the bound on this process: %s); use smaller "
                 "sizes (rounds, agents.count, objective.grid_points, features) or fewer "
                 "threads\n",
                 fbosim::config::memory_limit().what.c_str());
  else
    std::fprintf(stderr, "fbosim: error: %s\n", e.what());
  return fbosim::output::interrupted_exit_status();
}

// The handlers are installed before any constructor of fbosim or of its libraries runs: the
// dynamic loader calls the executable's .preinit_array first, after it mapped the libraries.
// A SIGTERM during the start-up (which takes long on a loaded machine: 44 libraries) is then
// handled, not the end of the process. Only the loading itself, before any code of fbosim
// runs, is left to the signal's default action.
// After a signal, the status is 128 + the signal whatever the command did: an interrupted
// command said what was kept (error_status); one that had ended (finished, or failed
// otherwise) says so here.
int with_interrupt_reported(int status) {
  const int sig = fbosim::output::interrupt_signal();
  if (sig == 0 || status == 128 + sig) return status;
  std::fprintf(stderr, "fbosim: error: interrupted by %s as the command ended (%s)\n",
               fbosim::output::interrupt_signal_name(),
               status == 0 ? "it had finished: what it printed and wrote is complete"
                           : "it had failed, as reported above");
  return 128 + sig;
}

int g_main_status = -1;  // what main returned, for the last exit handler

// The last exit handler (registered before any constructor, so it runs after every static
// destructor): a signal that came after main's own check, while the process was ending, still
// gives 128 + the signal.
void report_late_interrupt() {
  if (g_main_status < 0) return;
  // Everything printed is out before the status becomes final: a signal from here on ends the
  // process in its handler (end_with_status), which cannot flush.
  std::fflush(stdout);
  std::fflush(stderr);
  fbosim::output::end_with_status(g_main_status);
  const int status = with_interrupt_reported(g_main_status);
  if (status == g_main_status) return;
  std::fflush(stdout);
  std::_Exit(status);
}

void install_handlers_first(int, char**, char**) {
  fbosim::output::install_signal_handlers();
  std::atexit(report_late_interrupt);
}
using PreinitFunction = void (*)(int, char**, char**);
__attribute__((section(".preinit_array"), used)) PreinitFunction preinit_handlers =
    install_handlers_first;

}  // namespace

int main(int argc, char** argv) {
  occupy_closed_standard_descriptors();
  // Not a terminal: one flush at the end for any output below 1 MiB, so a write error is seen
  // with its cause (a terminal keeps its line buffering).
  if (!::isatty(STDOUT_FILENO)) std::setvbuf(stdout, nullptr, _IOFBF, 1 << 20);
  // The watchdog (the handlers are in place already): Ctrl-C/SIGTERM stop within 1 s.
  fbosim::output::install_interrupt_handlers();
  int status = 0;
  try {
    status = fbosim::cli::run_command_line(argc, argv);
  } catch (const std::exception& e) {  // e.g. bad_alloc while printing a message
    status = error_status(e);
  }
  g_main_status = with_interrupt_reported(with_output_checked(status));
  return g_main_status;
}

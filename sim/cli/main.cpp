// fbosim: differentially private federated Bayesian optimisation simulator.
#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
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

}  // namespace

int main(int argc, char** argv) {
  occupy_closed_standard_descriptors();
  // Not a terminal: one flush at the end for any output below 1 MiB, so a write error is seen
  // with its cause (a terminal keeps its line buffering).
  if (!::isatty(STDOUT_FILENO)) std::setvbuf(stdout, nullptr, _IOFBF, 1 << 20);
  fbosim::output::install_interrupt_handlers();  // every command: Ctrl-C/SIGTERM stop within 1 s
  int status = 0;
  try {
    status = fbosim::cli::run_command_line(argc, argv);
  } catch (const std::exception& e) {  // e.g. bad_alloc while printing a message
    status = error_status(e);
  }
  return with_output_checked(status);
}

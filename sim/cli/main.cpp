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

#include <CLI/CLI.hpp>

#include "sim/cli/commands.hpp"
#include "sim/config/config_reader.hpp"
#include "sim/config/resource_estimate.hpp"
#include "sim/core/eigen_blocking.hpp"
#include "sim/output/build_info.hpp"
#include "sim/output/interrupt.hpp"

namespace {

// The message of a usage error: CLI11's, or for an unknown command one naming it, each with
// the closest command or option when one is close.
std::string usage_message(const CLI::App& app, int argc, char** argv, const std::string& what) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  if (argc < 2 || argv[1][0] == '-') return what;
  const std::string command = argv[1];
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands({}))
    if (s->get_name() == command) sub = s;
  if (!sub) {
    std::string list;
    for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
    return "unknown command '" + command + "'" + fbosim::config::did_you_mean(command, commands) +
           "; the commands: " + list;
  }
  std::vector<std::string> options;
  for (const CLI::Option* o : sub->get_options())
    for (const std::string& n : o->get_lnames()) options.push_back("--" + n);
  for (int k = 2; k < argc; ++k) {
    const std::string arg = std::string(argv[k]).substr(0, std::string(argv[k]).find('='));
    if (arg.rfind("--", 0) != 0) continue;
    bool known = false;
    for (const std::string& o : options) known = known || o == arg;
    if (!known) return what + fbosim::config::did_you_mean(arg, options);
  }
  return what;
}

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

int run_main(int argc, char** argv) {
  fbosim::core::pin_eigen_blocking();  // the same bytes on every machine
  CLI::App app{fbosim::output::version_line() +
               ": simulator of differentially private federated Bayesian optimisation "
               "(DP-FTS-DE and its baselines)"};
  // The commit and whether the tree was modified, from the build (cmake/build_info.cmake).
  app.set_version_flag("--version", fbosim::output::version_line());
  app.require_subcommand(1);
  fbosim::cli::add_run_command(app);
  fbosim::cli::add_privacy_command(app);
  fbosim::cli::add_bench_command(app);
  fbosim::cli::add_audit_command(app);
  fbosim::cli::add_sweep_command(app);
  fbosim::cli::add_merge_command(app);
  fbosim::cli::add_config_command(app);
  fbosim::cli::add_keys_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {  // a command's own exit status (audit: 3)
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Usage errors: the same prefix as every other error, and exit status 2 (as getopt tools).
    std::fprintf(stderr, "fbosim: error: %s\nRun 'fbosim --help' or 'fbosim COMMAND --help'.\n",
                 usage_message(app, argc, argv, e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    return error_status(e);
  }
  return 0;
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
    status = run_main(argc, argv);
  } catch (const std::exception& e) {  // e.g. bad_alloc while printing a message
    status = error_status(e);
  }
  return with_output_checked(status);
}

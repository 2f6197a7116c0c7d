// fbosim: differentially private federated Bayesian optimisation simulator.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/commands.hpp"
#include "sim/core/eigen_blocking.hpp"
#include "sim/experiment/build_info.hpp"
#include "sim/experiment/config_reader.hpp"

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
    return "unknown command '" + command + "'" + fbosim::sim::did_you_mean(command, commands) +
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
    if (!known) return what + fbosim::sim::did_you_mean(arg, options);
  }
  return what;
}

}  // namespace

int main(int argc, char** argv) {
  fbosim::core::pin_eigen_blocking();  // the same bytes on every machine
  CLI::App app{fbosim::sim::version_line() +
               ": simulator of differentially private federated Bayesian optimisation "
               "(DP-FTS-DE and its baselines)"};
  // The commit and whether the tree was modified, from the build (cmake/build_info.cmake).
  app.set_version_flag("--version", fbosim::sim::version_line());
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
    std::fprintf(stderr, "fbosim: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

// fbosim: differentially private federated Bayesian optimisation simulator.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "sim/cli/commands.hpp"
#include "sim/experiment/build_info.hpp"

int main(int argc, char** argv) {
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fbosim: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

#pragma once
// The fbosim subcommands, each registered on the CLI11 app by its own file.
#include <CLI/CLI.hpp>

namespace fbosim::cli {

/// The most threads (or sweep jobs) an option accepts: far above any machine's cores, and
/// below the counts that fail on thread creation.
inline constexpr int kMaxThreads = 4096;

/// Rejects an empty value (`--out ''` would otherwise mean the default directory).
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("must not be empty") : std::string(); },
      "NONEMPTY");
}

void add_run_command(CLI::App& app);
void add_privacy_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_audit_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_merge_command(CLI::App& app);

}  // namespace fbosim::cli

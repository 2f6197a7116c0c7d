#pragma once
// The fbosim subcommands, each registered on the CLI11 app by its own file.
#include <CLI/CLI.hpp>

namespace fbosim::cli {

void add_run_command(CLI::App& app);
void add_privacy_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_audit_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_merge_command(CLI::App& app);

}  // namespace fbosim::cli

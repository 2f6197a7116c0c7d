#pragma once
// The fbosim subcommands, each registered on the CLI11 app by its own file.
#include <cmath>
#include <exception>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

namespace fbosim::cli {

/// The most threads (or sweep jobs) an option accepts: far above any machine's cores, and
/// below the counts that fail on thread creation.
inline constexpr int kMaxThreads = 4096;

/// An integer option in [lo, hi]: the message prints the bounds short (CLI11's PositiveNumber
/// prints the largest double in 300 digits).
inline CLI::Validator integer_in(long long lo,
                                 long long hi = std::numeric_limits<long long>::max()) {
  const std::string range = hi == std::numeric_limits<long long>::max()
                                ? ">= " + std::to_string(lo)
                                : "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& s) {
        long long v = 0;
        std::size_t used = 0;
        try {
          v = std::stoll(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != s.size() || v < lo || v > hi)
          return "must be an integer " + range + ", got '" + s.substr(0, 40) + "'";
        return std::string();
      },
      "INT");
}

/// Rejects an empty value (`--out ''` would otherwise mean the default directory).
inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("must not be empty") : std::string(); },
      "NONEMPTY");
}

/// epsilon as printed with 4 decimals, rounded up: a printed privacy loss is never below the
/// bound (the CSVs carry every digit).
inline double epsilon_shown(double epsilon) { return std::ceil(epsilon * 1e4) / 1e4; }

void add_run_command(CLI::App& app);
void add_privacy_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_audit_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_merge_command(CLI::App& app);
void add_config_command(CLI::App& app);
void add_keys_command(CLI::App& app);

}  // namespace fbosim::cli

#pragma once
// The fbosim subcommands: each command's arguments and the function that runs it, in the
// command's own file; their options are declared in command_line.cpp, the only file that
// includes CLI11 (its header-only 2.1 costs about 9 CPU-seconds per file that includes it, most
// of the build of sim/cli when each command included it).
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/audit/audit_options.hpp"

namespace fbosim::cli {

/// The most threads (or sweep jobs) an option accepts: far above any machine's cores, and
/// below the counts that fail on thread creation.
inline constexpr int kMaxThreads = 4096;

/// A usage error found once the options are parsed (a bad value or combination): exit status 2,
/// reported as CLI11 reports its own ("OPTION: WHAT", or WHAT alone without an option).
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what, std::string option = "")
      : std::runtime_error(what), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

/// epsilon as printed with 4 decimals, rounded up: a printed privacy loss is never below the
/// bound (the CSVs carry every digit).
inline double epsilon_shown(double epsilon) { return std::ceil(epsilon * 1e4) / 1e4; }

/// The command line: parses argv, runs the command and returns the exit status (0; 2 for a
/// usage error; a command's own, e.g. audit's 3). Errors of a command other than usage errors
/// propagate (main.cpp reports them).
int run_command_line(int argc, char** argv);

// ---- fbosim run (run_command.cpp) ----
struct RunArgs {
  std::string config;
  std::vector<std::string> sets;
  int runs = 0;
  long long seed = -1;
  int threads = 0;
  std::string out;
  std::string accountants;
  bool quiet = false;
  bool force = false;
  bool allow_exec = false;  ///< --allow-exec: the config file may run a program (user_program.hpp)
};
void run(const RunArgs& a);

// ---- fbosim privacy (privacy_command.cpp) ----
struct PrivacyArgs {
  double q = 0, z = 0, target = 0;
  std::string steps;
  int agents = 0;
  double delta = 0;
  std::string delta_rule = "default";  ///< --delta-rule: delta without --delta, as a run's
  std::string format = "text";
  std::string accountant = "moments";
  std::string sampling = "poisson";
  double count_noise = 0;          ///< sigma_b of adaptive clipping's count; 0: fixed clipping
  bool count_noise_given = false;  ///< --count-noise was given (0 is then refused, not "off")
  std::string config;              ///< `fbosim privacy CONFIG`: the run's ledger from the config
  std::vector<std::string> sets;
};
/// calibrate: --target-epsilon was given (print z); has_delta: --delta was given.
void run(const PrivacyArgs& a, bool calibrate, bool has_delta);
/// `fbosim privacy CONFIG`: the privacy loss a run of a.config reports, without running.
void run_config(const PrivacyArgs& a);

// ---- fbosim bench (bench_command.cpp) ----
struct BenchArgs {
  std::string which = "all";
  int threads = 0;
  int repeats = 3;
  std::vector<std::string> sets;
  bool callgrind = false;
  std::string callgrind_child;  // hidden: the re-executed process writes its dumps here
};
/// "all" and the names of the benchmark cases.
std::vector<std::string> bench_case_names();
void run(const BenchArgs& a);

// ---- fbosim audit (audit_command.cpp) ----
struct AuditArgs {
  std::string config;
  std::vector<std::string> sets;
  audit::AuditOptions options;
  unsigned long long seed = 0;
  int threads = 0;
  std::string format = "text";
  bool allow_exec = false;  ///< --allow-exec
};
/// The exit status: 3 when an audit exceeds its claimed bound, else 0.
int run(const AuditArgs& a);

// ---- fbosim sweep (sweep_command.cpp) ----
struct SweepArgs {
  std::string config;
  std::vector<std::string> grids;
  std::vector<std::string> sets;
  int runs = 0;
  long long seed = -1;
  int jobs = 0;
  int threads = 0;
  std::string shard;
  std::string out;
  bool quiet = false;
  std::string accountants;
  bool force = false;
  bool allow_exec = false;  ///< --allow-exec
};
void run(const SweepArgs& a);

// ---- fbosim merge (merge_command.cpp) ----
struct MergeArgs {
  std::vector<std::string> dirs;
  std::string out;
  bool allow_missing = false;
  bool force = false;
};
void run(const MergeArgs& a);

// ---- fbosim calibrate-clip (calibrate_clip_command.cpp) ----
struct CalibrateClipArgs {
  std::string config;
  std::vector<std::string> sets;
  double quantile = 0.95;   ///< the share of the pilot's messages S leaves unclipped
  int rounds = 0;           ///< the pilot's rounds; 0: the config's, at most 10
  int runs = 1;             ///< the pilot's runs
  int threads = 0;          ///< 0: every core
  bool allow_exec = false;  ///< --allow-exec: the pilot evaluates the objective (user_program.hpp)
};
/// The report: the norms' quantiles and the S for a.quantile (throws for a config without a
/// private server of the DP-FTS-DE family).
std::string calibrate_clip_text(const CalibrateClipArgs& a);
void run(const CalibrateClipArgs& a);

// ---- fbosim config and fbosim keys (config_command.cpp) ----
struct ConfigArgs {
  std::string config;
  std::vector<std::string> sets;
  int runs = 0;
  long long seed = -1;
  bool resources = false;
  int threads = 1;
};
void run(const ConfigArgs& a);

struct KeysArgs {
  std::string prefix;
  bool markdown = false;
};
void run(const KeysArgs& a);

}  // namespace fbosim::cli

#pragma once
// The files of one results directory (experiment_runner.hpp lists them), all opened before the
// runs (a file that cannot be created, too many open files or a read-only file system, fails
// before hours of work, not after), written run by run in run order, and committed together.
#include <optional>
#include <string>

#include "sim/config/experiment_spec.hpp"
#include "sim/output/atomic_file.hpp"
#include "sim/run/run_result.hpp"

namespace fbosim::run {

class ResultFiles {
 public:
  /// Opens every file under dir; release.csv only for algorithms that release values after the
  /// last round (issue #12), agents.csv only with per-agent ledgers (issues 41, 42).
  ResultFiles(const std::string& dir, const config::ExperimentSpec& spec);

  /// Appends run r's rows to trace.csv, release.csv, server.csv and timing.csv (the headers
  /// first, from run 0: the input dimension is known once the objectives exist).
  void add_run(int r, const RunResult& res);
  /// summary.csv's text (SummaryTable::csv).
  void write_summary(const std::string& text) { summary_.write(text); }
  /// summary_time.csv's and time_to_target.csv's texts (TimeSummary; a schedule other than
  /// rounds only; "" for no time_to_target.csv).
  void write_time_summary(const std::string& grid, const std::string& target);
  /// agents_time.csv's text (AgentTimePrivacy; per-agent ledgers under a schedule other than
  /// rounds only).
  void write_agents_time(const std::string& text);
  /// Writes config.resolved.yaml and provenance.yaml and names every file, config.resolved.yaml
  /// last, under the commit marker (output::kCommitMarker): an interruption at any point leaves
  /// the old set or a directory the same command resumes (an exit by the watchdog waits for the
  /// whole set); removes a stale release.csv of another config.
  void commit(const std::string& config_text, const std::string& provenance_text);

  /// delta next to epsilon: the pair is the guarantee (empty without DP: there is none).
  const std::string& delta() const { return delta_; }
  /// ",epsilon_<name>" per server.accountants ("_approx": not a bound).
  const std::string& extra_columns() const { return extra_columns_; }

 private:
  void write_headers(const RunResult& first);
  void write_server_rows(int r, const RunResult& res);
  void write_timing_rows(int r, const RunResult& res);

  std::string dir_, delta_, extra_columns_;
  // trace.csv's `time` column after `round`: only under a schedule other than rounds (the
  // papers' configs keep their format).
  bool timed_trace_ = false;
  output::AtomicFile trace_, server_, timing_, summary_, config_, record_;
  std::optional<output::AtomicFile> release_;
  std::optional<output::AtomicFile> agents_;  ///< agents.csv: per-agent ledgers only
  /// summary_time.csv, time_to_target.csv: a schedule other than rounds only (the latter with
  /// output.target_regret)
  std::optional<output::AtomicFile> summary_time_, target_;
  /// agents_time.csv: per-agent ledgers under a schedule other than rounds only
  std::optional<output::AtomicFile> agents_time_;
};

/// ",a,b,c" (empty for no values).
std::string join_prefixed(const std::vector<double>& values);

}  // namespace fbosim::run

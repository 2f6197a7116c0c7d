#include "sim/run/result_files.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "sim/output/interrupt.hpp"
#include "sim/output/provenance.hpp"
#include "sim/run/trace_sink.hpp"

namespace fbosim::run {

namespace {

std::string extra_epsilon_columns(const config::ExperimentSpec& spec) {
  std::string out;
  for (const std::string& a : spec.server.accountants) {
    out += ',';  // (GCC 12 warns falsely on `"," + std::string` under -O2)
    out += config::epsilon_column(a);
  }
  return out;
}

}  // namespace

std::string join_prefixed(const std::vector<double>& values) {
  std::string out;
  for (double v : values) out += fmt::format(",{}", v);
  return out;
}

ResultFiles::ResultFiles(const std::string& dir, const config::ExperimentSpec& spec)
    : dir_(dir),
      delta_(spec.is_private() ? fmt::format("{}", spec.delta()) : ""),
      extra_columns_(extra_epsilon_columns(spec)),
      timed_trace_(spec.schedule.kind != protocol::ScheduleKind::rounds),
      trace_(dir + "/trace.csv"),
      server_(dir + "/server.csv"),
      timing_(dir + "/timing.csv"),
      summary_(dir + "/summary.csv"),
      config_(dir + "/config.resolved.yaml"),
      record_(dir + "/provenance.yaml") {
  timing_.write("run,round,seconds,elapsed\n");
  if (spec.system->releases_values()) release_.emplace(dir + "/release.csv");
  if (spec.per_agent_ledgers) agents_.emplace(dir + "/agents.csv");
  if (timed_trace_) summary_time_.emplace(dir + "/summary_time.csv");
  if (timed_trace_ && spec.time_output.target_regret) target_.emplace(dir + "/time_to_target.csv");
  if (timed_trace_ && spec.per_agent_ledgers) agents_time_.emplace(dir + "/agents_time.csv");
}

void ResultFiles::write_agents_time(const std::string& text) {
  if (!agents_time_) throw std::logic_error("agents_time.csv without per-agent ledgers in time");
  agents_time_->write(text);
}

void ResultFiles::write_time_summary(const std::string& grid, const std::string& target) {
  if (!summary_time_) throw std::logic_error("summary_time.csv under schedule.kind rounds");
  summary_time_->write(grid);
  if (target_) target_->write(target);
}

void ResultFiles::write_headers(const RunResult& first) {
  std::string header = timed_trace_ ? "run,agent,round,time" : "run,agent,round";
  for (int k = 0; k < first.dim; ++k) header += fmt::format(",x{}", k);
  trace_.write(header + ",y,f,best_f,regret,source\n");
  // The columns of the algorithm's server (none without one).
  std::string columns;
  for (const std::string& c : first.server_columns) columns += c + ",";
  server_.write("run,round,time," + columns + "epsilon,delta" + extra_columns_ + "\n");
  if (release_) release_->write(release_csv_header(first.dim));
  if (agents_) {
    std::string columns;
    for (const std::string& c : first.agent_columns) columns += "," + c;
    agents_->write("run,round,time,agent" + columns + "\n");
  }
}

void ResultFiles::write_server_rows(int r, const RunResult& res) {
  std::string rows;
  for (const ServerRow& s : res.server) {
    std::string stats;
    for (const std::string& v : s.stats) stats += v + ",";
    rows += fmt::format("{},{},{},{}{},{}{}\n", r, s.round, s.time, stats, s.epsilon, delta_,
                        join_prefixed(s.extra_epsilon));
  }
  server_.write(rows);
}

void ResultFiles::write_timing_rows(int r, const RunResult& res) {
  // elapsed: the run's wall time up to the end of the round, histories excluded (FTS's
  // sources made theirs before the target's task, as in the paper's Fig. 3).
  std::string times;
  double elapsed = res.setup_seconds - res.history_seconds;
  for (std::size_t t = 0; t < res.round_seconds.size(); ++t) {
    elapsed += res.round_seconds[t];
    times += fmt::format("{},{},{:.6f},{:.6f}\n", r, t, res.round_seconds[t], elapsed);
  }
  timing_.write(times);
}

void ResultFiles::add_run(int r, const RunResult& res) {
  if (r == 0) write_headers(res);
  trace_.write(res.trace_csv);
  if (release_) release_->write(res.release_csv);
  if (agents_) agents_->write(res.agents_csv);
  write_server_rows(r, res);
  write_timing_rows(r, res);
}

// The set is committed in three steps, so that any interruption leaves a directory the same
// command resumes (issue 39): (1) every file is written out while still unnamed: a full disk or
// a file-size limit fails here, with the directory as it was; (2) the commit marker (the set's
// config) is written, and the old set's config.resolved.yaml removed: from here the directory
// says it holds an incomplete set of this config (output::check_results_dir lets the same config
// redo it); (3) the files are named, config.resolved.yaml last, and the marker removed. A SIGKILL
// or a failed rename in (3) leaves the marker; the watchdog's exit waits for the whole of (2)
// and (3) (CommitLock).
void ResultFiles::commit(const std::string& config_text, const std::string& provenance_text) {
  config_.write(config_text);
  record_.write(provenance_text);
  for (output::AtomicFile* f : {&trace_, &server_, &summary_, &timing_, &config_, &record_})
    f->flush();
  if (release_) release_->flush();
  if (agents_) agents_->flush();
  for (auto* f : {&summary_time_, &target_, &agents_time_})
    if (*f) (*f)->flush();
  const output::CommitLock all_or_none;  // an exit by the watchdog waits for the whole set
  const std::string marker_path = dir_ + "/" + output::kCommitMarker;
  output::AtomicFile marker(marker_path);
  marker.write(config_text);
  marker.commit();
  std::error_code ignored;
  std::filesystem::remove(dir_ + "/config.resolved.yaml", ignored);
  trace_.commit();
  server_.commit();
  if (release_) {
    release_->commit();
  } else {  // a release.csv of another config (replaced with --force) would be stale
    std::filesystem::remove(dir_ + "/release.csv", ignored);
  }
  if (agents_) {
    agents_->commit();
  } else {  // likewise an agents.csv
    std::filesystem::remove(dir_ + "/agents.csv", ignored);
  }
  // summary_time.csv, time_to_target.csv, agents_time.csv likewise
  for (auto [f, name] :
       {std::pair{&summary_time_, "summary_time.csv"}, std::pair{&target_, "time_to_target.csv"},
        std::pair{&agents_time_, "agents_time.csv"}}) {
    if (*f) {
      (*f)->commit();
    } else {
      std::filesystem::remove(dir_ + "/" + name, ignored);
    }
  }
  summary_.commit();
  timing_.commit();
  record_.commit();
  config_.commit();
  if (!std::filesystem::remove(marker_path, ignored) || ignored)
    throw std::runtime_error(
        "cannot remove " + marker_path + ": " + ignored.message() +
        " (the results are complete, but the directory says they are not: the same command "
        "commits them again)");
}

}  // namespace fbosim::run

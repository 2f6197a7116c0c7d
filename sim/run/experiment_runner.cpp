#include "sim/run/experiment_runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "algorithms/protocol/algorithm.hpp"
#include "core/thread_pool.hpp"
#include "datasets/data_checksum.hpp"
#include "datasets/objective_factory.hpp"
#include "sim/config/resource_estimate.hpp"
#include "sim/output/atomic_file.hpp"
#include "sim/output/build_info.hpp"
#include "sim/output/created_directories.hpp"
#include "sim/output/directory_lock.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/output/provenance.hpp"
#include "sim/run/agent_time_privacy.hpp"
#include "sim/run/kept_runs.hpp"
#include "sim/run/progress_line.hpp"
#include "sim/run/result_files.hpp"
#include "sim/run/run_checkpoint.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/summary_table.hpp"
#include "sim/run/time_summary.hpp"

namespace fbosim::run {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// provenance.yaml's algorithm_facts: what the algorithm decided from run 0's data
// (protocol::Algorithm::run_facts), agent 0's objective built only if it asks for its domain,
// as `fbosim audit` builds it.
std::vector<std::pair<std::string, std::string>> algorithm_facts(
    const config::ExperimentSpec& spec) {
  std::unique_ptr<datasets::ObjectiveFamily> family;
  std::shared_ptr<const datasets::Objective> objective;
  protocol::AuditInputs in;
  in.agents = spec.agents;
  in.rounds = spec.rounds;
  in.domain = [&]() -> const core::Domain& {
    if (!objective) {
      family = datasets::make_objective_family(spec.objective);
      objective = family->make(spec.agents, core::RngFactory(spec.seed, 0)).at(0);
    }
    return objective->domain();
  };
  return spec.system->run_facts(in);
}

// Supplies run r: its checkpoint when one verifies, else the directory's finished run r (an
// experiment grown with more runs; kept_runs.hpp), else a fresh run, checkpointed. An interrupt
// says what was kept.
class RunSource {
 public:
  RunSource(const RunEngine& engine, const RunCheckpoints& checkpoints, std::vector<RunResult> kept,
            int runs, bool progress, std::function<void(int, int, int)> on_round, int rounds)
      : engine_(engine),
        checkpoints_(checkpoints),
        kept_(std::move(kept)),
        runs_(runs),
        rounds_(rounds),
        progress_(progress, runs),
        on_round_(std::move(on_round)) {}

  RunResult get(int r) {
    if (static_cast<std::size_t>(r) < kept_.size()) {
      ++reused_;
      if (on_round_) on_round_(r, rounds_, rounds_);
      return std::move(kept_[static_cast<std::size_t>(r)]);
    }
    CheckpointRead read = checkpoints_.load(r);
    if (!read.problem.empty())  // never a silent re-run, even with --quiet
      std::fprintf(stderr, "fbosim: %s: %s: running run %d again\n", checkpoints_.path(r).c_str(),
                   read.problem.c_str(), r);
    if (read.result) {
      ++resumed_;
      if (on_round_) on_round_(r, rounds_, rounds_);
      return std::move(*read.result);
    }
    try {
      RunResult res = engine_.run(r, [&](int t, int rounds) {
        progress_.update(r, t, rounds);
        if (on_round_) on_round_(r, t, rounds);
        output::check_interrupt();
      });
      checkpoints_.save(res);
      ++fresh_;
      return res;
    } catch (const output::Interrupted&) {
      if (resumed_ + fresh_ + reused_ == 0)  // remove_unfinished leaves nothing then
        throw output::Interrupted("interrupted before the first run finished; nothing was kept");
      throw output::Interrupted(fmt::format(
          "interrupted; {} of {} runs finished, kept in {}{}: run the same command again to "
          "resume (the outputs will be those of an uninterrupted run)",
          resumed_ + fresh_ + reused_, runs_, checkpoints_.dir(),
          reused_ ? fmt::format(" (runs 0-{}: the directory's results)", reused_ - 1) : ""));
    }
  }
  /// Finished runs reused from an interrupted attempt.
  int resumed() const { return resumed_; }
  /// Finished runs reused from the directory's results (a grown experiment).
  int reused() const { return reused_; }

 private:
  const RunEngine& engine_;
  const RunCheckpoints& checkpoints_;
  std::vector<RunResult> kept_;
  int runs_, rounds_;
  ProgressLine progress_;
  std::function<void(int, int, int)> on_round_;
  int resumed_ = 0, fresh_ = 0, reused_ = 0;
};

// A user program's evaluations cost what the program costs (resource_estimate.hpp): one is
// timed before the runs (agent 0 of run 0, at the first point of its domain, which the program
// sees as round -1 of run 0, from a stream no run uses), and an experiment whose evaluations
// would take longer than any experiment may is refused; a long one is announced. A failing
// evaluation is left to the run, whose error names the query.
void time_user_objective(const config::ExperimentSpec& spec, const RunOptions& options) {
  if (!config::user_program_objective(spec)) return;
  const config::EvaluationCount n = config::objective_evaluations(spec);
  if (n.evaluations <= 0) return;
  double seconds = 0;
  try {
    const auto family = datasets::make_objective_family(spec.objective);
    const core::RngFactory streams(spec.seed, 0);
    const auto objectives = family->make(1, streams);
    const core::Domain& domain = objectives.at(0)->domain();
    const Eigen::VectorXd x = domain.is_grid() ? Eigen::VectorXd(domain.grid.row(0).transpose())
                                               : Eigen::VectorXd::Constant(domain.dim, 0.5);
    core::RngStream rng = streams.stream("objective.timing");
    const auto t0 = Clock::now();
    objectives[0]->query_at(x, rng, {0, -1});
    seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  } catch (const output::Interrupted&) {
    throw;
  } catch (const std::exception&) {
    // A program that fails fails the run's own first query too, which reports it with the
    // query's run, round and agent: that message says more than one about this evaluation.
    return;
  }
  const std::string refusal = config::evaluation_refusal(n, seconds);
  if (!refusal.empty()) throw std::runtime_error(refusal);
  const double total = config::evaluation_seconds(n, seconds) / std::max(1, options.threads);
  if (options.progress && total > config::kNoteSeconds)
    std::fprintf(stderr,
                 "fbosim: note: the objective's %.0f evaluations (%s) may take about %s on %d "
                 "thread(s): one took %.3g s; Ctrl-C stops the run and keeps the finished runs\n",
                 n.evaluations, n.what.c_str(), config::duration_text(total).c_str(),
                 options.threads, seconds);
}

// Runs (or reuses the checkpoints of) every run and writes the outputs; fills `out`.
void write_outputs(const config::ExperimentSpec& spec, const RunEngine& engine,
                   const std::string& config_text, const RunOptions& options,
                   const RunCheckpoints& checkpoints, const KeptRuns& kept,
                   output::Provenance& provenance, ExperimentSummary& out) {
  std::string note;
  std::vector<RunResult> finished = kept.load(spec.runs, note);
  if (!note.empty())  // never a silent re-run, even with --quiet
    std::fprintf(stderr, "fbosim: %s/%s: %s: running run %zu and later again\n",
                 out.out_dir.c_str(), KeptRuns::kFolder, note.c_str(), finished.size());
  ResultFiles files(out.out_dir, spec);
  SummaryTable summary(spec);
  std::optional<TimeSummary> time_summary;  // summary_time.csv: on the time line only
  if (spec.schedule.kind != protocol::ScheduleKind::rounds) time_summary.emplace(spec);
  std::optional<AgentTimePrivacy> agents_time;  // agents_time.csv: per-agent ledgers in time
  if (time_summary && spec.per_agent_ledgers) agents_time.emplace(spec);
  RunSource runs(engine, checkpoints, std::move(finished), spec.runs, options.progress,
                 options.on_round, spec.rounds);
  std::vector<RunResult> records;
  for (int r = 0; r < spec.runs; ++r) {
    const RunResult res = runs.get(r);
    files.add_run(r, res);
    summary.add_run(res);
    if (time_summary) time_summary->add_run(res);
    if (agents_time) agents_time->add_run(res.run);
    records.push_back(KeptRuns::record_of(res));
  }
  out.resumed_runs = runs.resumed() + runs.reused();
  if (runs.reused() > 0 && options.progress)
    std::fprintf(stderr, "fbosim: grown: runs 0-%d reused from the results in %s\n",
                 runs.reused() - 1, out.out_dir.c_str());
  if (runs.resumed() > 0 && options.progress)
    std::fprintf(stderr, "fbosim: resumed: %d finished run(s) of an interrupted attempt reused\n",
                 runs.resumed());
  files.write_summary(summary.csv(files.delta(), files.extra_columns()));
  if (time_summary) files.write_time_summary(time_summary->csv(), time_summary->target_csv());
  if (agents_time) files.write_agents_time(agents_time->csv(time_summary->grid()));
  summary.fill(out);
  provenance.resumed_runs = out.resumed_runs;
  provenance.finished = output::utc_now();
  files.commit(config_text, output::provenance_text(spec, provenance));
  try {  // only a later, grown experiment needs them: a failure here is a note, not an error
    kept.save(records);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fbosim: %s (a later --runs into %s will compute every run)\n", e.what(),
                 out.out_dir.c_str());
  }
}

// After a failure: the checkpoint folder unless it holds a finished run (kept for a resume),
// then the directories this run created, where empty.
void remove_unfinished(const std::string& partial, const output::CreatedDirectories& created) {
  std::error_code ec;
  bool finished = false;
  for (fs::directory_iterator it(partial, ec), end; !ec && it != end; it.increment(ec))
    finished = finished || it->path().extension() == ".ckpt";
  if (!finished) fs::remove_all(partial, ec);
  created.remove_empty();
}

}  // namespace

ExperimentSummary run_experiment(const config::ExperimentSpec& spec, const YAML::Node& resolved,
                                 const RunOptions& options) {
  const auto t0 = Clock::now();
  ExperimentSummary out;
  out.out_dir = options.out_dir.empty() ? "results/" + spec.name : options.out_dir;
  out.runs = spec.runs;
  out.rounds = spec.rounds;
  out.agents = spec.agents;
  const std::string config_text = output::resolved_config_text(spec, resolved);
  // The directory is locked for the whole run (checkpoints included): a second process
  // writing here is refused at once, naming this one, and reads it only under the lock.
  const output::CreatedDirectories created(out.out_dir);
  std::optional<output::DirectoryLock> lock;
  std::optional<RunCheckpoints> checkpoints;
  // Only a process that held the lock removes anything: a run refused because another process
  // holds the directory must leave that one's checkpoint folder alone (it removed it before its
  // first run finished, and the other failed writing its checkpoint).
  auto locked = std::make_shared<std::atomic<bool>>(false);
  // What the catch block below does, for an exit by the watchdog (interrupt.hpp).
  const output::ExitCleanup on_abrupt_exit(
      [partial = out.out_dir + "/" + RunCheckpoints::kFolder, created, locked] {
        if (*locked) remove_unfinished(partial, created);
      });
  // After a failure: release the lock first (its file would keep a created folder non-empty).
  const auto clean_up = [&] {
    lock.reset();
    if (*locked) remove_unfinished(out.out_dir + "/" + RunCheckpoints::kFolder, created);
  };
  try {
    output::check_no_links(out.out_dir);  // before the lock, which would be made through one
    lock.emplace(out.out_dir);
    *locked = true;
    output::check_results_dir(out.out_dir, config_text, options.force);
    output::Provenance provenance{output::command_line(),
                                  fs::current_path().string(),
                                  output::utc_now(),
                                  "",
                                  options.threads,
                                  0,
                                  {},
                                  {}};
    // The engine loads real data first: a missing file fails before any output is written.
    core::ThreadPool pool(options.threads);
    const RunEngine engine(spec, pool);
    provenance.algorithm_facts = algorithm_facts(spec);
    if (datasets::is_real_world(spec.objective.family))
      for (const datasets::DataFileRecord& d :
           datasets::data_file_records(spec.objective.data_root))
        provenance.data.push_back({d.path, d.sha256, d.check});
    time_user_objective(spec, options);
    for (const char* f : {"trace.csv", "server.csv", "summary.csv", "timing.csv", "release.csv",
                          "agents.csv", "summary_time.csv", "time_to_target.csv", "agents_time.csv",
                          "config.resolved.yaml", "provenance.yaml", output::kCommitMarker})
      output::AtomicFile::remove_stale(out.out_dir + "/" + f);
    // Keyed without `runs`: run r does not depend on the number of runs, so an interrupted
    // attempt also resumes with another --runs (issue 28).
    const std::string key = growth_key(output::build_info().build_id, config_text);
    const KeptRuns kept(out.out_dir, key);
    checkpoints.emplace(out.out_dir, key);
    if (!checkpoints->note().empty())
      std::fprintf(stderr, "fbosim: %s\n", checkpoints->note().c_str());
    if (checkpoints->discarded())  // never a silent choice, even in a sweep
      std::fprintf(stderr,
                   "fbosim: %s: discarded the finished runs of an interrupted attempt with "
                   "another config or build\n",
                   checkpoints->dir().c_str());
    write_outputs(spec, engine, config_text, options, *checkpoints, kept, provenance, out);
    checkpoints->remove();
  } catch (const output::Interrupted&) {  // its message says what was kept
    clean_up();
    throw;
  } catch (const std::runtime_error& e) {
    // Keep finished runs for a resume (after a full disk, a file-size limit, a failed run); leave
    // no empty folder behind, and say what stays.
    clean_up();
    if (!checkpoints || checkpoints->empty() || !fs::exists(checkpoints->dir())) throw;
    throw std::runtime_error(
        fmt::format("{}; the finished runs are kept in {} (run the same command again to resume)",
                    e.what(), checkpoints->dir()));
  } catch (...) {
    clean_up();
    throw;
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

}  // namespace fbosim::run

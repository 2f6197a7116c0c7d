#include "sim/sweep/sweep_runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/output/atomic_file.hpp"
#include "sim/output/build_info.hpp"
#include "sim/output/created_directories.hpp"
#include "sim/output/csv_table.hpp"
#include "sim/output/directory_lock.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/output/provenance.hpp"
#include "sim/run/clip_pilot.hpp"
#include "sim/run/experiment_runner.hpp"
#include "sim/run/kept_runs.hpp"
#include "sim/sweep/algorithm_grid.hpp"
#include "sim/sweep/sweep_done.hpp"
#include "sim/sweep/sweep_merge.hpp"
#include "sim/sweep/sweep_progress.hpp"
#include "sim/sweep/sweep_table.hpp"

namespace fbosim::sweep {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

struct Prepared {
  config::SweepPoint point;
  config::LoadedConfig config;
  std::string config_text;  ///< its config.resolved.yaml
  std::string dir;
  bool dp = false;
};

// What sweep.done says about a point.
struct DoneState {
  std::optional<double> seconds;  ///< set when the point is finished and can be skipped
  std::string rerun_reason;       ///< why a point that has a sweep.done is run again
  std::string runs_change;        ///< instead, when only `runs` changed: "growing from 3 to 6 ..."
};

// The `runs: N` line of a resolved config; 0 when absent.
int runs_of(const std::string& config_text) {
  static const std::regex line("(^|\n)runs: ([0-9]+)");
  std::smatch m;
  return std::regex_search(config_text, m, line) ? std::stoi(m[2].str()) : 0;
}

// A point whose finished results differ from its config only in `runs` (the config the record
// covers, read back from the point) is grown or cut by its run, which reuses the runs it kept
// (sim/run/kept_runs.hpp): say so, rather than "its config changed". Empty otherwise.
std::string runs_change(const Prepared& p, const std::string& build, const SweepDone& done) {
  std::ifstream in(p.dir + "/config.resolved.yaml", std::ios::binary);
  const std::string old{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (done.build != build || old.empty() || sweep_fingerprint(build, old) != done.fingerprint ||
      run::growth_key(build, old) != run::growth_key(build, p.config_text))
    return "";
  const int from = runs_of(old), to = runs_of(p.config_text);
  if (from == to) return "";  // the same config: its files changed, or another build's record
  std::error_code ec;
  const bool kept = fs::is_directory(p.dir + "/" + run::KeptRuns::kFolder, ec);
  return fmt::format("{} from {} to {} runs (reusing {})", to > from ? "growing" : "shrinking",
                     from, to, kept ? std::min(from, to) : 0);
}

DoneState done_state(const Prepared& p, const std::string& build, const std::string& sweep) {
  // Under the point's lock: a `fbosim run --out` into it cannot change its files between the
  // check and the record rewritten below (DirectoryBusy fails the point, naming the holder).
  std::optional<output::DirectoryLock> lock;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(p.dir + "/" + SweepDone::kFile, ec))) lock.emplace(p.dir);
  std::string problem;
  const std::optional<SweepDone> done = SweepDone::read(p.dir, problem);
  if (!done) return {{}, problem, ""};
  const std::string why = done->mismatch(p.dir, build, p.config_text);
  if (!why.empty()) return {{}, why, runs_change(p, build, *done)};
  // The same results reused by another sweep command (a comment edited, a --set that does not
  // change this point): the record names the sweep it is now part of, for merge.
  if (done->sweep != sweep) SweepDone::write(p.dir, build, p.config_text, sweep, done->seconds);
  return {done->seconds, "", ""};
}

// The sweep.csv row of a finished point, from its summary.csv (last row) and server.csv.
SweepRow make_row(const Prepared& p, double seconds) {
  SweepRow row;
  row.point = p.point.index;
  for (const auto& kv : p.point.values) row.values.push_back(kv.second);
  row.dir = p.point.name;
  const std::string summary_path = p.dir + "/summary.csv";
  const output::CsvTable summary = output::CsvTable::read(summary_path);
  if (summary.rows.empty()) throw std::runtime_error(summary_path + ": no rows");
  const auto& last = summary.rows.back();
  for (const char* c : {"mean_regret", "se_regret", "mean_best_f", "se_best_f"})
    row.metrics.emplace_back(c, last[summary.column(c, summary_path)]);
  for (std::size_t k = 0; k < summary.header.size(); ++k)
    if (summary.header[k].rfind("epsilon", 0) == 0 || summary.header[k] == "delta")
      row.metrics.emplace_back(summary.header[k], last[k]);
  // server_stop (issue 29): with a stop rule (summary.csv's `aggregating`, the share of runs
  // whose server aggregated round t), the first round some run's server did not aggregate,
  // `rounds` when every run aggregated every round; no column without a stop rule.
  if (const int a = summary.find("aggregating"); a >= 0) {
    std::size_t stop = summary.rows.size() - 1;  // the last row (round T) has no server round
    for (std::size_t t = 0; t + 1 < summary.rows.size(); ++t)
      if (summary.rows[t][static_cast<std::size_t>(a)] != "1") {
        stop = t;
        break;
      }
    row.metrics.emplace_back("server_stop", std::to_string(stop));
  }
  std::string clipped;
  if (p.dp) {
    const std::string server_path = p.dir + "/server.csv";
    const output::CsvTable server = output::CsvTable::read(server_path);
    const auto has = [&](const char* c) {
      return std::find(server.header.begin(), server.header.end(), c) != server.header.end();
    };
    // Only a server that clips has these columns (issue #12's releases have no server).
    if (has("clipped") && has("selected")) {
      const int cc = server.column("clipped", server_path),
                cs = server.column("selected", server_path);
      double sum_clipped = 0, sum_selected = 0;
      for (const auto& r : server.rows) {
        sum_clipped += std::atof(r[cc].c_str());
        sum_selected += std::atof(r[cs].c_str());
      }
      if (sum_selected > 0) {
        clipped = fmt::format("{}", sum_clipped / sum_selected);
        // As `fbosim run` warns (even with --quiet), naming the point.
        const std::string w = run::clipping_warning(p.config.spec, sum_clipped / sum_selected);
        if (!w.empty())
          std::fprintf(stderr, "fbosim: warning: sweep point %s: %s\n", p.point.name.c_str(),
                       w.c_str());
      }
    }
  }
  row.metrics.emplace_back("clipped_fraction", clipped);
  row.metrics.emplace_back("seconds", fmt::format("{:.3f}", seconds));
  return row;
}

// True if a point directory is left in the sweep directory (finished, or holding the checkpoints
// of finished runs: run_experiment removes the point directories it created otherwise).
bool any_point_kept(const std::string& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) return true;
  return false;
}

// Removes the plan and the lock of a sweep that kept nothing, then the directories it created.
void remove_created(const std::string& dir, const output::CreatedDirectories& created) {
  std::error_code ec;
  fs::remove(dir + "/sweep_plan.csv", ec);
  fs::remove(dir + "/.lock", ec);
  created.remove_empty();
}

// The delta warnings of the points (issue 39), as `fbosim run` prints its own, even with
// --quiet: the first kShown in full, then how many more points have one.
void print_delta_warnings(const std::vector<Prepared>& points) {
  constexpr int kShown = 3;
  int warned = 0;
  for (const Prepared& p : points) {
    const std::string w = p.config.spec.delta_warning();
    if (w.empty()) continue;
    if (++warned <= kShown)
      std::fprintf(stderr, "fbosim: warning: sweep point %s: %s\n", p.point.name.c_str(),
                   w.c_str());
  }
  if (warned > kShown)
    std::fprintf(stderr,
                 "fbosim: warning: %d more sweep points have delta x N above %g (each point's "
                 "provenance.yaml: delta_warning)\n",
                 warned - kShown, config::kDeltaTimesAgentsWarning);
}

// Every point's config, validated before any point runs: a bad value fails at once, naming
// the point.
std::vector<Prepared> prepare_points(const std::string& config_text, const std::string& source,
                                     const std::string& default_name,
                                     const std::vector<std::string>& overrides,
                                     const config::SweepPlan& plan, const SweepOptions& options) {
  std::vector<Prepared> points;
  const AlgorithmGrid algorithms(config_text, source, overrides, plan);
  std::vector<std::string> notes;
  for (const config::SweepPoint& point : plan.shard(options.shard)) {
    // Validating a point takes about a millisecond: large grids take long.
    output::check_interrupt();
    std::vector<std::string> all = overrides;
    const std::vector<std::string> fixes = algorithms.fixes(point, notes);
    all.insert(all.end(), fixes.begin(), fixes.end());
    const std::vector<std::string> own = point.overrides();
    all.insert(all.end(), own.begin(), own.end());
    Prepared p{point, {}, "", options.out_dir + "/" + point.name, false};
    try {
      p.config = config::load_config_text(config_text, source, default_name, all);
    } catch (const config::ConfigError& e) {
      throw config::ConfigError("sweep point " + point.name + ": " + e.what());
    }
    p.config_text = output::resolved_config_text(p.config.spec, p.config.resolved);
    p.dp = p.config.spec.is_private();
    points.push_back(std::move(p));
  }
  for (const std::string& n : notes)  // even with --quiet: what a point runs is never silent
    std::fprintf(stderr, "fbosim: %s\n", n.c_str());
  print_delta_warnings(points);
  return points;
}

// sweep_plan.csv: every point of the full grid.
SweepTable plan_table(const config::SweepPlan& plan) {
  SweepTable table{plan.keys(), {}};
  for (const config::SweepPoint& point : plan.points()) {
    SweepRow r;
    r.point = point.index;
    for (const auto& kv : point.values) r.values.push_back(kv.second);
    r.dir = point.name;
    table.rows.push_back(std::move(r));
  }
  return table;
}

// Refuses, before anything runs, a point directory holding another config's results (all of
// them named in one message: the first, and how many more).
void check_point_dirs(const std::vector<Prepared>& points, bool force) {
  std::vector<std::string> clashes;
  for (const Prepared& p : points) {
    output::check_interrupt();
    try {  // a point directory planted as a link to another folder: never written through
      output::check_no_links(p.dir);
    } catch (const output::LinkedResults& e) {
      throw output::LinkedResults("sweep point " + p.point.name + ": " + e.what());
    }
    try {
      output::check_results_dir(p.dir, p.config_text, force);
    } catch (const output::ResultsClash& e) {
      clashes.push_back(e.what());
    }
  }
  if (!clashes.empty())
    throw output::ResultsClash(fmt::format(
        "sweep point {}{}", clashes.front(),
        clashes.size() > 1 ? fmt::format(" ({} more point(s) likewise)", clashes.size() - 1)
                           : std::string()));
}

// What the workers left: per point its seconds and sweep.csv row when finished (run or
// skipped), and the first error.
struct PointOutcomes {
  std::vector<std::optional<double>> seconds;
  std::vector<std::optional<SweepRow>> rows;
  std::vector<char> skipped;
  std::exception_ptr error;
  bool any_finished() const {
    return std::any_of(seconds.begin(), seconds.end(), [](const auto& s) { return s.has_value(); });
  }
};

// sweep.csv's table of the finished points so far, in grid order.
SweepTable finished_table(const config::SweepPlan& plan, const PointOutcomes& outcomes) {
  SweepTable table{plan.keys(), {}, true};
  for (const std::optional<SweepRow>& row : outcomes.rows)
    if (row) table.rows.push_back(*row);
  return table;
}

// Runs the points on `jobs.jobs` worker threads, each point on its own pool of `jobs.threads`;
// workers take points in grid order and stop at the first error or an interrupt. sweep.csv is
// rewritten (atomically) within a second of each point's end, so it lists every finished point
// even when the process ends abruptly (the watchdog after Ctrl-C, a SIGKILL; issue 28).
class PointWorkers {
 public:
  PointWorkers(const std::vector<Prepared>& points, const config::SweepPlan& plan,
               const SweepJobs& jobs, const std::string& build, const std::string& sweep,
               const SweepOptions& options)
      : points_(points),
        plan_(plan),
        jobs_(jobs),
        build_(build),
        sweep_(sweep),
        options_(options),
        progress_(options.progress, static_cast<int>(points.size()), jobs.jobs) {
    out_.seconds.resize(points.size());
    out_.rows.resize(points.size());
    out_.skipped.assign(points.size(), 0);
  }

  PointOutcomes run() {
    workers_left_ = jobs_.jobs;
    std::vector<std::thread> threads;
    for (int k = 0; k < jobs_.jobs; ++k) threads.emplace_back([this] { work(); });
    {
      std::unique_lock<std::mutex> guard(mutex_);
      while (workers_left_ > 0) {
        all_done_.wait_for(guard, std::chrono::seconds(1));
        std::optional<SweepTable> table;
        if (rows_changed_) table = finished_table(plan_, out_);
        rows_changed_ = false;
        guard.unlock();
        progress_.tick();
        if (table) write_partial(*table);
        guard.lock();
      }
    }
    for (std::thread& t : threads) t.join();
    return std::move(out_);
  }

 private:
  void work() {
    while (!stop_ && !output::interrupt_requested()) {
      const std::size_t i = next_++;
      if (i >= points_.size()) break;
      const Prepared& p = points_[i];
      try {
        run_point(i, p);
      } catch (const output::Interrupted&) {
        progress_.abandoned(p.point.name);
      } catch (const std::exception& e) {
        progress_.abandoned(p.point.name);
        std::lock_guard<std::mutex> guard(mutex_);
        if (!out_.error)
          out_.error = std::make_exception_ptr(
              std::runtime_error("sweep point " + p.point.name + ": " + e.what()));
        stop_ = true;
      }
    }
    std::lock_guard<std::mutex> guard(mutex_);
    --workers_left_;
    all_done_.notify_all();
  }

  // Point i: skipped when its sweep.done verifies, else run (its sweep.done removed first and
  // written last).
  void run_point(std::size_t i, const Prepared& p) {
    const DoneState done = done_state(p, build_, sweep_);
    if (done.seconds) {
      finish(i, make_row(p, *done.seconds), *done.seconds, true);
      progress_.finished(p.point.name, *done.seconds, true);
      return;
    }
    if (!done.runs_change.empty()) {  // even with --quiet: never a silent re-run
      std::lock_guard<std::mutex> guard(mutex_);
      std::fprintf(stderr, "fbosim: point %s: %s\n", p.point.name.c_str(),
                   done.runs_change.c_str());
    } else if (!done.rerun_reason.empty()) {
      std::lock_guard<std::mutex> guard(mutex_);
      std::fprintf(stderr, "fbosim: point %s: %s: running it again\n", p.point.name.c_str(),
                   done.rerun_reason.c_str());
    }
    progress_.started(p.point.name);
    fs::remove(p.dir + "/" + SweepDone::kFile);
    const auto start = Clock::now();
    run::RunOptions ro;
    ro.threads = jobs_.threads;
    ro.out_dir = p.dir;
    ro.progress = false;
    // Checked before, and again by the run under the point's lock: a `fbosim run --out`
    // into the point since then (another config) is refused, not replaced.
    ro.force = options_.force;
    run::run_experiment(p.config.spec, p.config.resolved, ro);
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    SweepDone::write(p.dir, build_, p.config_text, sweep_, s);
    finish(i, make_row(p, s), s, false);
    progress_.finished(p.point.name, s, false);
  }

  void finish(std::size_t i, SweepRow row, double seconds, bool skipped) {
    std::lock_guard<std::mutex> guard(mutex_);
    out_.seconds[i] = seconds;
    out_.rows[i] = std::move(row);
    out_.skipped[i] = skipped ? 1 : 0;
    rows_changed_ = true;
  }

  // A failed intermediate write is not the sweep's failure: the final write reports it.
  void write_partial(const SweepTable& table) {
    try {
      table.write(options_.out_dir + "/sweep.csv");
    } catch (const std::exception&) {
    }
  }

  const std::vector<Prepared>& points_;
  const config::SweepPlan& plan_;
  const SweepJobs jobs_;
  const std::string& build_;
  const std::string& sweep_;
  const SweepOptions& options_;
  SweepProgress progress_;
  PointOutcomes out_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable all_done_;
  int workers_left_ = 0;
  bool rows_changed_ = false;
};

// sweep.csv's rows (the finished points, in grid order) and the report's counts.
SweepTable results_table(const config::SweepPlan& plan, const PointOutcomes& outcomes,
                         SweepReport& report) {
  const SweepTable table = finished_table(plan, outcomes);
  for (std::size_t i = 0; i < outcomes.seconds.size(); ++i) {
    if (!outcomes.seconds[i]) continue;
    if (outcomes.skipped[i]) {
      ++report.skipped;
    } else {
      ++report.ran;
      report.run_seconds += *outcomes.seconds[i];
    }
  }
  return table;
}

// DIR/provenance.yaml of the sweep.
void write_sweep_provenance(output::Provenance& provenance, const SweepReport& report,
                            const SweepOptions& options) {
  provenance.finished = output::utc_now();
  output::AtomicFile record(options.out_dir + "/provenance.yaml");
  record.write(output::sweep_provenance_text(
      provenance, report.jobs.jobs,
      fmt::format("{}/{}", options.shard.index, options.shard.count)));
  record.commit();
}

}  // namespace

SweepJobs choose_jobs(int jobs, int threads, int points, int hardware) {
  hardware = std::max(1, hardware);
  points = std::max(1, points);
  SweepJobs j;
  if (jobs <= 0 && threads <= 0) {
    j.jobs = std::min(points, hardware);
    j.threads = std::max(1, hardware / j.jobs);
  } else if (jobs <= 0) {
    j.threads = threads;
    j.jobs = std::min(points, std::max(1, hardware / threads));
  } else if (threads <= 0) {
    j.jobs = std::min(points, jobs);
    j.threads = std::max(1, hardware / j.jobs);
  } else {
    j.jobs = std::min(points, jobs);
    j.threads = threads;
  }
  j.oversubscribed = j.jobs * j.threads > hardware;
  return j;
}

SweepReport run_sweep(const std::string& config_text, const std::string& source,
                      const std::string& default_name, const std::vector<std::string>& overrides,
                      const config::SweepPlan& plan, const SweepOptions& options) {
  const auto t0 = Clock::now();
  output::Provenance provenance{
      output::command_line(), fs::current_path().string(), output::utc_now(), "", 0, 0, {}, {}};
  if (options.out_dir.empty()) throw std::invalid_argument("run_sweep: no output directory");
  SweepReport report;
  report.out_dir = options.out_dir;
  report.points = static_cast<int>(plan.points().size());

  const std::string build = options.build.empty() ? output::build_info().build_id : options.build;
  const std::string sweep = sweep_id(config_text, overrides);
  const std::vector<Prepared> points =
      prepare_points(config_text, source, default_name, overrides, plan, options);
  // Every point's config is valid: lock the directory (creating it) for the whole sweep, so
  // that no other fbosim process writes into it meanwhile (and none reads it half-written).
  // (A clash below implies the directory existed: the lock's release leaves it as it was.)
  const output::CreatedDirectories created(options.out_dir);
  std::optional<output::DirectoryLock> lock(std::in_place, options.out_dir);
  // If the watchdog ends the process before any point finished (interrupt.hpp): no plan left.
  const output::ExitCleanup on_abrupt_exit([dir = options.out_dir, created] {
    if (!any_point_kept(dir)) remove_created(dir, created);
  });
  // A directory holding a sweep of other keys is refused (a grid of other values is the same
  // sweep re-planned: its finished points are reused), and so is a point directory holding
  // another config's results, before anything runs.
  const SweepTable planned = plan_table(plan);
  check_sweep_dir(options.out_dir, planned, true, options.force);
  check_point_dirs(points, options.force);
  report.shard_points = static_cast<int>(points.size());
  report.jobs = choose_jobs(options.jobs, options.threads, report.shard_points,
                            core::ThreadPool::hardware_threads());
  provenance.threads = report.jobs.threads;
  planned.write(options.out_dir + "/sweep_plan.csv");

  const PointOutcomes outcomes =
      PointWorkers(points, plan, report.jobs, build, sweep, options).run();
  if (!outcomes.any_finished() && !any_point_kept(options.out_dir)) {
    // Failed or interrupted before any point finished, and no point keeps a finished run: the
    // sweep leaves nothing, as a failed run (a directory it did not create keeps the others'
    // files).
    lock.reset();
    remove_created(options.out_dir, created);
    if (outcomes.error) std::rethrow_exception(outcomes.error);
    throw SweepInterrupted("interrupted before any point finished; nothing was kept");
  }
  const SweepTable table = results_table(plan, outcomes, report);
  table.write(options.out_dir + "/sweep.csv");
  write_sweep_provenance(provenance, report, options);
  report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (outcomes.error) std::rethrow_exception(outcomes.error);
  if (table.rows.size() < points.size())
    throw SweepInterrupted(fmt::format(
        "interrupted: {} of {} points finished (kept, listed in {}/sweep.csv); run the same "
        "command again to resume",
        table.rows.size(), points.size(), options.out_dir));
  return report;
}

}  // namespace fbosim::sweep

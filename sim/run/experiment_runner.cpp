#include "sim/run/experiment_runner.hpp"

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "datasets/data_checksum.hpp"
#include "datasets/objective_factory.hpp"
#include "sim/core/thread_pool.hpp"
#include "sim/output/atomic_file.hpp"
#include "sim/output/build_info.hpp"
#include "sim/output/directory_lock.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/output/provenance.hpp"
#include "sim/run/run_checkpoint.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/trace_sink.hpp"

namespace fbosim::run {

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

// Mean and standard error of the finite entries of a set of values.
std::pair<double, double> mean_se(const std::vector<double>& v) {
  double sum = 0, sum2 = 0;
  int n = 0;
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    sum += x;
    sum2 += x * x;
    ++n;
  }
  if (n == 0) return {std::nan(""), std::nan("")};
  const double mean = sum / n;
  const double var = n > 1 ? std::max(0.0, (sum2 - n * mean * mean) / (n - 1)) : 0.0;
  return {mean, std::sqrt(var / n)};
}

// summary.csv's mean and standard error of one round's values, `per_run` consecutive values per
// run: the mean over every finite value; the s.e. over the runs' means (NaN with fewer than two
// runs: one replication has none), or, over_pairs, over every value as if independent (agents
// of one run share its function, so this one is several times narrower).
std::pair<double, double> summary_mean_se(const std::vector<double>& v, std::size_t per_run,
                                          bool over_pairs) {
  const auto [mean, pair_se] = mean_se(v);
  if (over_pairs || per_run == 0) return {mean, pair_se};
  std::vector<double> run_means;
  for (std::size_t i = 0; i + per_run <= v.size(); i += per_run) {
    const std::vector<double> run(v.begin() + static_cast<std::ptrdiff_t>(i),
                                  v.begin() + static_cast<std::ptrdiff_t>(i + per_run));
    const double m = mean_se(run).first;
    if (std::isfinite(m)) run_means.push_back(m);
  }
  if (run_means.size() < 2) return {mean, std::nan("")};
  return {mean, mean_se(run_means).second};
}

std::string csv_number(double x) { return std::isfinite(x) ? fmt::format("{}", x) : ""; }

class ProgressLine {
 public:
  ProgressLine(bool enabled, int runs) : enabled_(enabled), runs_(runs), tty_(isatty(2)) {}
  void update(int run, int round, int rounds) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (elapsed < 1.0) return;
    const bool run_done = round == rounds;
    // Without a terminal: a plain line at every finished run and at least every 10 s, so a
    // long single run in a log (Slurm, nohup, CI) still shows it advancing.
    if (!tty_ && !run_done && elapsed - last_line_ < kInterval) return;
    last_line_ = elapsed;
    const double frac = (run + (round + 1.0) / (rounds + 1.0)) / runs_;
    const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
    std::fprintf(stderr, "%srun %d/%d round %d/%d  %.0f%%  %.1fs elapsed, ETA %.1fs%s",
                 tty_ ? "\r" : "", run + 1, runs_, round, rounds, 100 * frac, elapsed, eta,
                 tty_ ? "   " : "\n");
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_;
  int runs_;
  bool tty_;
  static constexpr double kInterval = 10.0;  // seconds between plain lines
  double last_line_ = 0;
  bool shown_ = false;
  Clock::time_point start_ = Clock::now();
};

// ",a,b,c" (empty for no values).
std::string join_prefixed(const std::vector<double>& values) {
  std::string out;
  for (double v : values) out += fmt::format(",{}", v);
  return out;
}

// Test hook FBOSIM_TEST_STOP_AFTER_RUNS=k: once k runs were newly finished, the next run is
// interrupted at its first round, as Ctrl-C would (k = 0: the first run).
int stop_after_runs() {
  const char* v = std::getenv("FBOSIM_TEST_STOP_AFTER_RUNS");
  return v && *v ? std::atoi(v) : -1;
}

// Runs (or reuses the checkpoints of) every run and writes the outputs; fills `out`.
void write_outputs(const config::ExperimentSpec& spec, const RunEngine& engine,
                   const std::string& config_text, const RunOptions& options,
                   const RunCheckpoints& checkpoints, output::Provenance& provenance,
                   ExperimentSummary& out) {
  const bool dp = spec.is_private();
  // delta next to epsilon: the pair is the guarantee (empty without DP: there is none).
  const std::string delta = dp ? fmt::format("{}", spec.delta()) : "";
  // Every output is opened before the runs: a file that cannot be created (too many open
  // files, a read-only or full file system) fails before hours of work, not after.
  output::AtomicFile trace(out.out_dir + "/trace.csv");
  output::AtomicFile server(out.out_dir + "/server.csv");
  output::AtomicFile timing(out.out_dir + "/timing.csv");
  output::AtomicFile summary(out.out_dir + "/summary.csv");
  output::AtomicFile config(out.out_dir + "/config.resolved.yaml");
  output::AtomicFile record(out.out_dir + "/provenance.yaml");
  timing.write("run,round,seconds,elapsed\n");
  // release.csv only for algorithms that release values after the last round (issue #12).
  std::optional<output::AtomicFile> release;
  if (spec.system->releases_values()) release.emplace(out.out_dir + "/release.csv");
  std::string extra_columns;  // ",epsilon_<name>" per server.accountants ("_approx": not a bound)
  for (const std::string& a : spec.server.accountants) {
    extra_columns += ',';  // (GCC 12 warns falsely on `"," + std::string` under -O2)
    extra_columns += config::epsilon_column(a);
  }
  ProgressLine progress(options.progress, spec.runs);
  // per round: values over (run, agent)
  std::vector<std::vector<double>> regret(spec.rounds + 1), best_f(spec.rounds + 1);
  std::size_t per_run = 0;  // the measured agents of a run (the same in every run)
  // Per round, the largest over the runs (every run releases the same events today; the largest
  // stays a bound on each run's privacy if they ever differ).
  std::vector<double> epsilon(static_cast<std::size_t>(spec.rounds) + 1, 0.0);
  std::vector<std::vector<double>> extra_epsilon(spec.server.accountants.size(), epsilon);
  long long messages = 0, clipped = 0;
  const int stop_after = stop_after_runs();
  int fresh = 0;
  for (int r = 0; r < spec.runs; ++r) {
    CheckpointRead read = checkpoints.load(r);
    if (!read.problem.empty())  // never a silent re-run, even with --quiet
      std::fprintf(stderr, "fbosim: %s: %s: running run %d again\n", checkpoints.path(r).c_str(),
                   read.problem.c_str(), r);
    std::optional<RunResult> loaded = std::move(read.result);
    if (loaded) {
      ++out.resumed_runs;
    } else {
      try {
        loaded = engine.run(r, [&](int t, int rounds) {
          progress.update(r, t, rounds);
          output::check_interrupt();
          if (stop_after >= 0 && fresh >= stop_after) throw output::Interrupted();
        });
        checkpoints.save(*loaded);
        ++fresh;
      } catch (const output::Interrupted&) {
        if (out.resumed_runs + fresh == 0)  // remove_unfinished leaves nothing then
          throw output::Interrupted("interrupted before the first run finished; nothing was kept");
        throw output::Interrupted(fmt::format(
            "interrupted; {} of {} runs finished, kept in {}: run the same command again to "
            "resume (the outputs will be those of an uninterrupted run)",
            out.resumed_runs + fresh, spec.runs, checkpoints.dir()));
      }
    }
    const RunResult& res = *loaded;
    if (r == 0) {  // the input dimension is known once the objectives exist
      std::string header = "run,agent,round";
      for (int k = 0; k < res.dim; ++k) header += fmt::format(",x{}", k);
      trace.write(header + ",y,f,best_f,regret,source\n");
      // The columns of the algorithm's server (none without one).
      std::string columns;
      for (const std::string& c : res.server_columns) columns += c + ",";
      server.write("run,round,time," + columns + "epsilon,delta" + extra_columns + "\n");
      if (release) release->write(release_csv_header(res.dim));
    }
    trace.write(res.trace_csv);
    if (release) release->write(res.release_csv);
    std::string rows;
    for (const ServerRow& s : res.server) {
      std::string stats;
      for (const std::string& v : s.stats) stats += v + ",";
      rows += fmt::format("{},{},{},{}{},{}{}\n", r, s.round, s.time, stats, s.epsilon, delta,
                          join_prefixed(s.extra_epsilon));
    }
    server.write(rows);
    // elapsed: the run's wall time up to the end of the round, histories excluded (FTS's
    // sources made theirs before the target's task, as in the paper's Fig. 3).
    std::string times;
    double elapsed = res.setup_seconds - res.history_seconds;
    for (std::size_t t = 0; t < res.round_seconds.size(); ++t) {
      elapsed += res.round_seconds[t];
      times += fmt::format("{},{},{:.6f},{:.6f}\n", r, t, res.round_seconds[t], elapsed);
    }
    timing.write(times);
    for (int t = 0; t <= spec.rounds; ++t) {
      per_run = static_cast<std::size_t>(res.best_f.cols());
      for (Eigen::Index n = 0; n < res.best_f.cols(); ++n) {
        best_f[t].push_back(res.best_f(t, n));
        regret[t].push_back(res.regret(t, n));
      }
    }
    for (std::size_t t = 0; t < epsilon.size(); ++t) {
      epsilon[t] = std::max(epsilon[t], res.epsilon.at(t));
      for (std::size_t a = 0; a < extra_epsilon.size(); ++a)
        extra_epsilon[a][t] = std::max(extra_epsilon[a][t], res.extra_epsilon.at(a).at(t));
    }
    messages += res.messages;
    clipped += res.clipped;
    out.fallbacks += res.fallbacks;
  }
  if (out.resumed_runs > 0 && options.progress)
    std::fprintf(stderr, "fbosim: resumed: %d finished run(s) of an interrupted attempt reused\n",
                 out.resumed_runs);

  summary.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n" +
                extra_columns + "\n");
  for (int t = 0; t <= spec.rounds; ++t) {
    const auto [mr, sr] = summary_mean_se(regret[t], per_run, spec.se_over_pairs);
    const auto [mb, sb] = summary_mean_se(best_f[t], per_run, spec.se_over_pairs);
    std::vector<double> extra;
    for (const auto& e : extra_epsilon) extra.push_back(e[t]);
    summary.write(fmt::format("{},{},{},{},{},{},{},{}{}\n", t, csv_number(mr), csv_number(sr),
                              csv_number(mb), csv_number(sb), epsilon[t], delta, best_f[t].size(),
                              join_prefixed(extra)));
    if (t == spec.rounds) {
      out.final_mean_regret = mr;
      out.final_se_regret = sr;
      out.final_mean_best_f = mb;
      out.final_se_best_f = sb;
      out.epsilon = epsilon[t];  // everything released, the final release included
    }
  }
  config.write(config_text);
  provenance.resumed_runs = out.resumed_runs;
  provenance.finished = output::utc_now();
  record.write(output::provenance_text(spec, provenance));

  const output::CommitLock all_or_none;  // an exit by the watchdog waits for the whole set
  trace.commit();
  server.commit();
  if (release) {
    release->commit();
  } else {  // a release.csv of another config (replaced with --force) would be stale
    std::error_code ignored;
    fs::remove(out.out_dir + "/release.csv", ignored);
  }
  summary.commit();
  timing.commit();
  config.commit();
  record.commit();
  out.clipped_fraction = messages > 0 ? static_cast<double>(clipped) / messages : 0.0;
}

// After a failure: the checkpoint folder unless it holds a finished run (kept for a resume),
// then the directories this run created, where empty.
void remove_unfinished(const std::string& partial, const std::vector<fs::path>& created) {
  std::error_code ec;
  bool finished = false;
  for (fs::directory_iterator it(partial, ec), end; !ec && it != end; it.increment(ec))
    finished = finished || it->path().extension() == ".ckpt";
  if (!finished) fs::remove_all(partial, ec);
  for (auto it = created.rbegin(); it != created.rend(); ++it)
    if (fs::is_empty(*it, ec)) fs::remove(*it, ec);
}

// The directories create_directories(dir) would create, outermost first.
std::vector<fs::path> missing_directories(const fs::path& dir) {
  std::vector<fs::path> out;
  for (fs::path p = fs::absolute(dir).lexically_normal(); !p.empty() && !fs::exists(p);
       p = p.parent_path()) {
    out.insert(out.begin(), p);
    if (p == p.parent_path()) break;
  }
  return out;
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
  const std::vector<fs::path> created = missing_directories(out.out_dir);
  std::optional<output::DirectoryLock> lock;
  std::optional<RunCheckpoints> checkpoints;
  // What the catch block below does, for an exit by the watchdog (interrupt.hpp).
  const output::ExitCleanup on_abrupt_exit([partial = out.out_dir + "/" + RunCheckpoints::kFolder,
                                            created] { remove_unfinished(partial, created); });
  // After a failure: release the lock first (its file would keep a created folder non-empty).
  const auto clean_up = [&] {
    lock.reset();
    remove_unfinished(out.out_dir + "/" + RunCheckpoints::kFolder, created);
  };
  try {
    lock.emplace(out.out_dir);
    output::check_results_dir(out.out_dir, config_text, options.force);
    output::Provenance provenance{output::command_line(),
                                  fs::current_path().string(),
                                  output::utc_now(),
                                  "",
                                  options.threads,
                                  0,
                                  {}};
    // The engine loads real data first: a missing file fails before any output is written.
    core::ThreadPool pool(options.threads);
    const RunEngine engine(spec, pool);
    if (datasets::is_real_world(spec.objective.family))
      for (const datasets::DataFileRecord& d :
           datasets::data_file_records(spec.objective.data_root))
        provenance.data.push_back({d.path, d.sha256, d.check});
    for (const char* f : {"trace.csv", "server.csv", "summary.csv", "timing.csv", "release.csv",
                          "config.resolved.yaml", "provenance.yaml"})
      output::AtomicFile::remove_stale(out.out_dir + "/" + f);
    checkpoints.emplace(out.out_dir, "build " + output::build_info().build_id + "\n" + config_text);
    if (!checkpoints->note().empty())
      std::fprintf(stderr, "fbosim: %s\n", checkpoints->note().c_str());
    if (checkpoints->discarded())  // never a silent choice, even in a sweep
      std::fprintf(stderr,
                   "fbosim: %s: discarded the finished runs of an interrupted attempt with "
                   "another config or build\n",
                   checkpoints->dir().c_str());
    write_outputs(spec, engine, config_text, options, *checkpoints, provenance, out);
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

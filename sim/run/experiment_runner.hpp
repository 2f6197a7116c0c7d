#pragma once
// Runs every run of an experiment and writes its outputs into one directory:
//   config.resolved.yaml  every key with its effective value (server.delta as a number)
//   provenance.yaml       build, command line, threads, times (sim/output/provenance.hpp)
//   trace.csv             run,agent,round,x0..,y,f,best_f,regret,source (one row per query)
//   server.csv            run,round,time,received,selected,clipped,noise_std,epsilon,delta
//                         (+ aggregating before epsilon where server.budget or server.stop_p
//                         is set: 0 from the round the server stopped on)
//   summary.csv           round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,delta,n
//                         (+ aggregating last, likewise)
//   timing.csv            run,round,seconds,elapsed (wall times: depend on the machine)
//   release.csv           run,agent,quantity,mechanism,release_epsilon,release_delta,
//                         sensitivity,value,nonprivate,x0..,f,regret,evaluations: the values
//                         released after the last round, each with its own guarantee (only
//                         algorithms that release values: Algorithm::releases_values;
//                         sim/run/trace_sink.hpp)
//   agents.csv            run,round,time,agent,epsilon (+ a trust model's views): each agent's
//                         own epsilon after every round, only where agents can be charged
//                         unevenly (ExperimentSpec::per_agent_ledgers: schedules, trust models,
//                         personal budgets); summary.csv then has epsilon_median and epsilon_p90
//                         after `epsilon`, which is the largest agent's
//   summary_time.csv      time,mean_regret,se_regret,mean_best_f,se_best_f,n: on a grid of
//                         simulated time (output.time_grid), under a schedule other than rounds
//   time_to_target.csv    target_regret,runs,reached,never,mean_time,se_time: with
//                         output.target_regret, likewise (sim/run/time_summary.hpp)
//   agents_time.csv       run,time,epsilon_max,epsilon_median,epsilon_p90: the agents' epsilons
//                         on summary_time.csv's grid, with per-agent ledgers under a schedule
//                         other than rounds (sim/run/agent_time_privacy.hpp)
// Every column named epsilon (server.csv, summary.csv, sweep.csv) holds the privacy spent so far
// by every event of the run (setup, rounds, final release) under server.accountant, an upper
// bound; summary.csv's last row (round T) includes the final release. epsilon_<name> columns
// are server.accountants' (epsilon_<name>_approx where that is an approximation: gdp).
// Files are written to temporaries and renamed at the end, as one set (result_files.hpp): a
// run that fails before the commit leaves none of them (and removes the output directory again
// if it created it and nothing is kept there); one stopped during the commit (a full disk, a
// SIGKILL between two renames) leaves the commit marker, and the same command redoes the set.
// A directory holding another config's results is refused unless `force`; a directory that is
// a symbolic link, or holds one where a result file goes, is refused (output::check_no_links).
// Each finished run is checkpointed (sim/run/run_checkpoint.hpp): after an interruption, the
// same command with the same build reuses the finished runs, and the outputs are
// byte-identical to an uninterrupted run's. Tests interrupt a run at a chosen round through
// RunOptions::on_round.
#include <functional>
#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "sim/config/experiment_spec.hpp"
#include "sim/run/experiment_summary.hpp"

namespace fbosim::run {

struct RunOptions {
  int threads = 1;
  std::string out_dir;   ///< default results/<name>
  bool progress = true;  ///< progress line on stderr after one second
  bool force = false;    ///< replace the results of another config in out_dir
  /// Called with (run, round, rounds) after every round of every run (0..rounds; round ==
  /// rounds: run `run` is finished) and once with round == rounds for a run reused from a
  /// checkpoint; on the thread that runs the runs, so it must be quick (the Python module
  /// stores the count for its progress bar, drawn by Python's own thread).
  std::function<void(int, int, int)> on_round;
};

ExperimentSummary run_experiment(const config::ExperimentSpec& spec, const YAML::Node& resolved,
                                 const RunOptions& options);

}  // namespace fbosim::run

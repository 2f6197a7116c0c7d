#pragma once
// Runs every run of an experiment and writes its outputs into one directory:
//   config.resolved.yaml  every key with its effective value
//   trace.csv             run,agent,round,x0..,y,f,best_f,regret,source (one row per query)
//   server.csv            run,round,time,received,selected,clipped,noise_std,epsilon
//   summary.csv           round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,n
// Files are written to temporaries and renamed at the end: a failed run leaves none of them.
#include <string>

#include <yaml-cpp/yaml.h>

#include "sim/experiment/experiment_spec.hpp"

namespace fbosim::sim {

struct RunOptions {
  int threads = 1;
  std::string out_dir;   ///< default results/<name>
  bool progress = true;  ///< progress line on stderr after one second
};

/// Headline numbers of a finished experiment (printed by `fbosim run`).
struct ExperimentSummary {
  std::string out_dir;
  int runs = 0, rounds = 0, agents = 0;
  double final_mean_regret = 0, final_se_regret = 0;
  double final_mean_best_f = 0, final_se_best_f = 0;
  double epsilon = 0;
  double clipped_fraction = 0;
  int fallbacks = 0;
  double seconds = 0;
};

ExperimentSummary run_experiment(const ExperimentSpec& spec, const YAML::Node& resolved,
                                 const RunOptions& options);

}  // namespace fbosim::sim

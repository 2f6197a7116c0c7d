#pragma once
// One run of an experiment: N agents and the server stepped through rounds on the
// discrete-event core. Round t: the server's broadcast (time T0) -> every agent proposes,
// evaluates and samples its message (in parallel on the pool) -> each reply is an event at
// T0 + latency -> the round closes at the deadline (or when the last reply is in) and the
// mechanism aggregates what arrived. With zero latency and no dropouts this is exactly the
// synchronous protocol of Algo. 1 and 2.
#include <functional>
#include <memory>

#include "sim/core/thread_pool.hpp"
#include "sim/experiment/experiment_spec.hpp"
#include "sim/experiment/run_result.hpp"

namespace fbosim::sim {

class RunEngine {
 public:
  /// Called after every round with (round, rounds).
  using Progress = std::function<void(int, int)>;

  /// Builds the objective family (loading real data: errors name the path) before any run.
  RunEngine(const ExperimentSpec& spec, core::ThreadPool& pool);
  /// Runs run number `run` (streams keyed by (seed, run)). Throws std::runtime_error if an
  /// objective returns a non-finite value.
  RunResult run(int run, const Progress& progress = {}) const;

 private:
  const ExperimentSpec& spec_;
  core::ThreadPool& pool_;
  std::shared_ptr<const datasets::ObjectiveFamily> family_;
};

}  // namespace fbosim::sim

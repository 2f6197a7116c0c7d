#pragma once
// A rough upper estimate of the memory and floating-point work of an experiment, from its
// spec alone, so that an absurd size (rounds: 1e9, rff.features: 1e9, ...) is rejected with the
// keys named before anything is allocated, instead of a bad_alloc or a run of years. The
// estimate counts the dominant terms only (dense matrices and their factorisations). Memory is
// compared with what this process may use on this machine (physical memory, cgroup, ulimit);
// work with a fixed bound far above every experiment of the papers, and turned into a time
// (kFlopsPerCoreSecond) for the messages and for the note `fbosim run` prints before a long run.
// The evaluations of a user program (objective.family command or python) cost what the program
// costs: the runner times one before the runs and refuses, by the same bound, an experiment
// whose evaluations would take longer (evaluation_refusal; docs/USER_GUIDE.md "Limits").
#include <string>
#include <vector>

#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/protocol/resource_estimate.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::config {

using protocol::key_value;
using protocol::ResourceEstimate;
using protocol::ResourceTerm;

/// Work over this many floating-point operations is rejected (about a year of one core at
/// kFlopsPerCoreSecond; months of a large machine), whatever the machine.
inline constexpr double kMaxFlops = 1e17;

/// The estimate's floating-point operations per second of one core, from which a time is given:
/// measured as the estimate's flops over the user CPU time of `fbosim run --threads 1` (one run,
/// Release build, a 2-core x86-64 development machine with AVX2) on configs whose estimate is
/// dominated by work it counts closely: RGPE's ranking losses (configs/fts/fig1a.yaml with
/// algorithm rgpe, ensemble.samples 100 and 3000: 3.4e9 and 3.9e9), PO-GP-UCB's GP-UCB steps
/// (configs/po_gp_ucb/table1.yaml, 300 rounds: 3.3e9), the heterogeneous prior's factorisation
/// (configs/dp_fts_de/fig7.yaml, 3000 grid points: 7.8e9). Elsewhere the estimate counts more
/// work than is done (the default experiment: 1.6e10; local_ts.features 400: 2e11). The lowest is
/// taken, so a time from it is an upper estimate.
inline constexpr double kFlopsPerCoreSecond = 3.3e9;

/// An experiment estimated to take longer than this on the threads it is given is announced with
/// its estimated time (a note on stderr; seconds).
inline constexpr double kNoteSeconds = 3600;

/// The memory this process may use, and what sets it.
struct MemoryLimit {
  double bytes = 0;
  std::string what;  ///< e.g. "the machine's memory (/proc/meminfo: 23.4 GiB)"
};

/// The least of the machine's physical memory, the cgroup's limit (cgroup v2 memory.max or v1
/// memory.limit_in_bytes) and `ulimit -v` / `-d` (RLIMIT_AS, RLIMIT_DATA); read once per process.
const MemoryLimit& memory_limit();
/// The same from given values (for tests): physical bytes, the text of the cgroup's limit file
/// ("max", a number, or "" when absent) and the rlimits (RLIM_INFINITY or a negative value:
/// none).
MemoryLimit memory_limit_from(double physical_bytes, const std::string& cgroup_limit,
                              double rlimit_as, double rlimit_data);

/// An upper estimate of the wall time of the experiment's work on `threads` threads (s).
double estimated_seconds(const ResourceEstimate& e, int threads);
/// "42 s", "3.2 minutes", "5.1 hours", "12 days", "3.4 years".
std::string duration_text(double seconds);

/// Why an experiment of this estimate is refused (memory above `limit`, work above kMaxFlops,
/// with the estimated time), or "" when it is not.
std::string resource_refusal(const ResourceEstimate& e, const MemoryLimit& limit);

/// True for the objective families whose evaluations run the user's code (a `command` program,
/// a `python` function): their cost is unknown until one is timed. (A `table` is a lookup.)
bool user_program_objective(const ExperimentSpec& spec);

/// The objective evaluations an experiment makes, as its algorithm counts them, and the keys
/// that give the count ("runs = 3 x agents.count = 4 x (agents.init_points = 2 + rounds = 5)").
struct EvaluationCount {
  double evaluations = 0;
  std::string what;
};
EvaluationCount objective_evaluations(const ExperimentSpec& spec);

/// The evaluations' time on one thread when each takes `seconds`.
inline double evaluation_seconds(const EvaluationCount& n, double seconds) {
  return n.evaluations * seconds;
}
/// Why an experiment whose evaluations take `seconds` each (one timed) is refused: they would
/// take longer on one thread than the work refused for any experiment (kMaxFlops at
/// kFlopsPerCoreSecond, about a year of one core); "" when it is not.
std::string evaluation_refusal(const EvaluationCount& n, double seconds);

/// The experiment's terms (the traces; the GP prior of a family on a 1-D grid, from its shape)
/// and its algorithm's (its registry entry's `estimate`).
ResourceEstimate estimate_resources(const ExperimentSpec& spec);
/// What an algorithm's estimate knows of the experiment.
protocol::ExperimentFacts experiment_facts(const ExperimentSpec& spec);

}  // namespace fbosim::config

// The observer of the test program fbosim_interrupting (sim/cli/run_observer.hpp): with
// FBOSIM_TEST_STOP_AFTER_RUNS=k in its environment, once k runs were newly computed (not reused
// from checkpoints or kept results), the next computed run receives a real SIGINT at its first
// round, as if Ctrl-C had been pressed then: the run stops through fbosim's own handler (exit
// status 130, the finished runs kept). k = 0: the first run.
#include <csignal>
#include <cstdlib>
#include <set>

#include "sim/cli/run_observer.hpp"

namespace fbosim::cli {

std::function<void(int, int, int)> run_observer() {
  const char* v = std::getenv("FBOSIM_TEST_STOP_AFTER_RUNS");
  if (!v || !*v) return {};
  const int stop_after = std::atoi(v);
  // A computed run reports its rounds 0..rounds; a reused one only round == rounds.
  return [stop_after, computing = std::set<int>(), computed = 0](int run, int round,
                                                                 int rounds) mutable {
    if (round < rounds) {
      if (computing.insert(run).second && computed >= stop_after) std::raise(SIGINT);
    } else if (computing.count(run)) {
      ++computed;
    }
  };
}

}  // namespace fbosim::cli

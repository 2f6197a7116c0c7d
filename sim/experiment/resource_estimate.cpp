#include "sim/experiment/resource_estimate.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace fbosim::sim {

double ResourceEstimate::bytes() const {
  double b = 0;
  for (const ResourceTerm& t : memory) b += t.amount;
  return b;
}

double ResourceEstimate::flops() const {
  double f = 0;
  for (const ResourceTerm& t : work) f += t.amount;
  return f;
}

const ResourceTerm& ResourceEstimate::largest(const std::vector<ResourceTerm>& terms) {
  return *std::max_element(
      terms.begin(), terms.end(),
      [](const ResourceTerm& a, const ResourceTerm& b) { return a.amount < b.amount; });
}

ResourceEstimate estimate_resources(const ExperimentSpec& s) {
  // Every count as a double: the products overflow any integer type at the bounds of the keys.
  const double runs = s.runs, rounds = s.rounds, agents = s.agents;
  const double m = s.features, ml = s.agent.local_features;
  const double obs = s.agent.init_points + rounds;  // observations of an agent at the end
  const std::string& family = s.objective.family;
  const bool grid = family == "gp_grid" || family == "heterogeneous";
  const double n = grid ? s.objective.synthetic.grid_points : 0;
  const double dim = family == "gp_box" ? s.objective.synthetic.dim : 2;
  const auto kv = [](const char* key, double v) { return fmt::format("{} = {:g}", key, v); };
  const std::string r = kv("runs", runs), t = kv("rounds", rounds), a = kv("agents.count", agents);
  const std::string ks = kv("rff.features", m), kl = kv("local_ts.features", ml);
  constexpr double kDouble = 8;

  ResourceEstimate e;
  // Memory. The GP prior on the grid, a copy and its Cholesky factor: 3 n^2 doubles.
  if (grid) {
    const std::string kn = kv("objective.grid_points", n);
    e.memory.push_back({3 * n * n * kDouble, kn + " (3 n^2 doubles: the GP prior on the grid)"});
    e.memory.push_back({2 * agents * n * kDouble, a + " x " + kn + " (every agent's function)"});
  }
  // Each agent's posterior over the M shared features (a matrix and its factor).
  e.memory.push_back(
      {agents * 2 * m * m * kDouble, a + " x " + ks + "^2 (the agents' posteriors)"});
  // A local TS step: M_target x M_target matrices and the features of the observations.
  e.memory.push_back({(3 * ml * ml + obs * ml) * kDouble,
                      kl + "^2 (the local Thompson sampling step of each thread)"});
  // The traces: regret and best f per (run, round, agent), and one run's trace text.
  e.memory.push_back({(runs * 2 * kDouble + 100) * (rounds + 1) * agents,
                      r + " x " + t + " x " + a + " (the traces)"});

  // Work. Drawing the functions of a run: the Cholesky of the grid prior, one sample per agent.
  if (grid)
    e.work.push_back({runs * (n * n * n / 3 + agents * n * n),
                      kv("objective.grid_points", n) + "^3 per run (the GP prior on the grid)"});
  const double steps = runs * agents * rounds;  // agent-rounds
  const std::string per = r + " x " + a + " x " + t;
  e.work.push_back({steps * (ml * ml * ml / 3 + obs * ml * ml),
                    per + " x " + kl + "^3 (local Thompson sampling)"});
  e.work.push_back({steps * (m * m * m / 3 + m * m), per + " x " + ks + "^3 (posterior samples)"});
  if (grid) {
    e.work.push_back({steps * n * (m + ml), per + " x objective.grid_points = " +
                                                fmt::format("{:g}", n) + " (the acquisition)"});
  } else {
    const auto& q = s.agent.maximiser;
    const double evaluations = q.random_points + static_cast<double>(q.starts) * q.max_iterations;
    e.work.push_back({steps * evaluations * (m + ml) * dim,
                      per + " x " + kv("acquisition.random_points", q.random_points) + " + " +
                          kv("acquisition.starts", q.starts) + " x " +
                          kv("acquisition.max_iterations", q.max_iterations) +
                          " (the acquisition)"});
  }
  if (s.agent.fit_hyper) {
    const auto& f = s.agent.fit;
    const double fits = runs * agents * (rounds / s.agent.refit_every + 1);
    e.work.push_back({fits * (f.restarts + 1.0) * f.max_iterations * obs * obs * obs / 3,
                      per + " x " + kv("gp.restarts", f.restarts) + " x " +
                          kv("gp.max_iterations", f.max_iterations) +
                          " (marginal-likelihood fits)"});
  }
  return e;
}

}  // namespace fbosim::sim

#include "algorithms/agents/local_ts_estimate.hpp"

#include <fmt/format.h>

namespace fbosim::agents {

void estimate_local_ts_steps(const protocol::ExperimentFacts& s, double agent_steps,
                             double observations, double features, const LocalTsOptions& local,
                             protocol::ResourceEstimate& e) {
  using protocol::key_value;
  // On a 1-D grid the acquisition scans the grid's points; elsewhere the box maximiser runs.
  const bool grid = s.domain == core::DomainKind::grid && s.dimension == 1;
  const double n = grid ? static_cast<double>(s.domain_points) : 0;
  // The acquisition's dimension: the box's (before the registry: gp_box's, 2 for the others).
  const double dim = s.domain == core::DomainKind::box ? s.dimension : 2;
  const double m = features, ml = local.features;
  const std::string per = key_value("runs", s.runs) + " x " + key_value("agents.count", s.agents) +
                          " x " + key_value("rounds", s.rounds);
  const std::string ks = key_value("rff.features", m), kl = key_value("local_ts.features", ml);
  constexpr double kDouble = 8;
  // A local TS step: M_target x M_target matrices and the features of the observations.
  e.memory.push_back({(3 * ml * ml + observations * ml) * kDouble,
                      kl + "^2 (the local Thompson sampling step of each thread)"});
  if (local.redraw == Redraw::refit)  // each agent keeps Sigma_t and its factor
    e.memory.push_back({static_cast<double>(s.agents) * 2 * ml * ml * kDouble,
                        key_value("agents.count", s.agents) + " x " + kl +
                            "^2 x 2 (local_ts.redraw: refit keeps each agent's posterior)"});
  e.work.push_back({agent_steps * (ml * ml * ml / 3 + observations * ml * ml),
                    per + " x " + kl + "^3 (local Thompson sampling)"});
  e.work.push_back(
      {agent_steps * (m * m * m / 3 + m * m), per + " x " + ks + "^3 (posterior samples)"});
  if (grid) {
    e.work.push_back(
        {agent_steps * n * (m + ml),
         per + " x objective.grid_points = " + fmt::format("{:g}", n) + " (the acquisition)"});
  } else if (local.acquisition.method == acq::Method::direct) {
    const double evaluations = local.acquisition.direct.max_evaluations;
    e.work.push_back({agent_steps * evaluations * (m + ml) * dim,
                      per + " x " + key_value("acquisition.direct.max_evaluations", evaluations) +
                          " (the acquisition)"});
  } else {
    const auto& q = local.maximiser;
    const double evaluations = q.random_points + static_cast<double>(q.starts) * q.max_iterations;
    e.work.push_back({agent_steps * evaluations * (m + ml) * dim,
                      per + " x " + key_value("acquisition.random_points", q.random_points) +
                          " + " + key_value("acquisition.starts", q.starts) + " x " +
                          key_value("acquisition.max_iterations", q.max_iterations) +
                          " (the acquisition)"});
  }
  if (local.fit_hyper) {
    const auto& f = local.fit;
    const double fits = s.runs * static_cast<double>(s.agents) * (s.rounds / local.refit_every + 1);
    e.work.push_back({fits * (f.restarts + 1.0) * f.max_iterations * observations * observations *
                          observations / 3,
                      per + " x " + key_value("gp.restarts", f.restarts) + " x " +
                          key_value("gp.max_iterations", f.max_iterations) +
                          " (marginal-likelihood fits)"});
  }
}

}  // namespace fbosim::agents

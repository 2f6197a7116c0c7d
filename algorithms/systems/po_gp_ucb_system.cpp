#include "algorithms/systems/po_gp_ucb_system.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/protocol/experiment_facts.hpp"
#include "algorithms/protocol/resource_estimate.hpp"
#include "algorithms/systems/curator_release_audit.hpp"

namespace fbosim::systems {

using protocol::key_value;

PoGpUcbSystem::PoGpUcbSystem(PoGpUcbConfig config) : config_(std::move(config)) {
  if (config_.name != "po_gp_ucb" && config_.name != "gp_ucb")
    throw std::invalid_argument(
        fmt::format("PoGpUcbSystem builds po_gp_ucb and gp_ucb, not '{}'", config_.name));
  (void)curator::omega(config_.curator.epsilon, config_.curator.delta, config_.curator.r);
  if (!(config_.max_norm > 0))
    throw std::invalid_argument(
        fmt::format("curator.max_norm must be > 0, got {}", config_.max_norm));
  (void)agents::ucb_beta(1, 1, config_.ucb.delta);
}

std::vector<privacy::DpEvent> PoGpUcbSystem::possible_events(int agents) const {
  if (!is_private_variant()) return {};
  // Theorem 1's claim for each curator's release (disputed: docs/PRIVATE_BO.md).
  return std::vector<privacy::DpEvent>(
      static_cast<std::size_t>(agents),
      privacy::DpEvent::epsilon_delta(config_.curator.epsilon, config_.curator.delta));
}

protocol::RunParts PoGpUcbSystem::build(const protocol::RunInputs& in) const {
  const core::Domain& domain = *in.domain;
  if (!domain.is_grid())
    throw std::invalid_argument(fmt::format(
        "{} needs a finite domain (the curator's dataset X): objective.family gp_grid2d or "
        "another grid family",
        config_.name));
  if (domain.grid.rows() <= domain.dim)
    throw std::invalid_argument(
        fmt::format("{}: the dataset has {} rows, it needs more than d = {}", config_.name,
                    domain.grid.rows(), domain.dim));
  protocol::RunParts parts;
  // The curator's preprocessing (sec. 4), the same for every agent: one normalisation.
  const curator::Normalised X = curator::normalise(domain.grid, config_.max_norm);
  for (int n = 0; n < in.agents; ++n) {
    Eigen::MatrixXd candidates;
    if (is_private_variant()) {
      core::RngStream rng = in.streams->stream("curator", static_cast<std::uint64_t>(n));
      candidates = curator::release(X.X, config_.curator, rng).Z;
      parts.setup_events.push_back(
          privacy::DpEvent::epsilon_delta(config_.curator.epsilon, config_.curator.delta));
    } else {
      candidates = X.X;
    }
    parts.agents.push_back(
        std::make_unique<agents::GpUcbAgent>(n, std::move(candidates), domain.grid, config_.ucb));
    parts.measured.push_back(n);
  }
  return parts;
}

std::vector<protocol::AuditDetail> PoGpUcbSystem::run_facts(const protocol::AuditInputs& in) const {
  if (!is_private_variant()) return {};
  const core::Domain& domain = in.domain();
  if (!domain.is_grid() || domain.grid.rows() <= domain.dim) return {};  // build() refuses it
  const curator::Transform t =
      curator::transform(curator::normalise(domain.grid, config_.max_norm).X, config_.curator);
  return {{"curator.sigma_min", fmt::format("{}", t.sigma_min)},
          {"curator.omega", fmt::format("{}", t.omega)},
          {"curator.branch", t.lifted ? "else" : "if"},
          {"curator.lift", config_.curator.lift == curator::Lift::paper ? "paper" : "authors"}};
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> PoGpUcbSystem::auditable_releases(
    const protocol::AuditInputs& in) const {
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> out;
  if (!is_private_variant()) return out;
  if (in.noise_scale != 1)
    throw std::invalid_argument(fmt::format(
        "--noise-scale {}: the curator's release (Algorithm 1) adds no noise to scale (its "
        "randomness is the projection M)",
        in.noise_scale));
  const core::Domain& domain = in.domain();
  if (!domain.is_grid()) throw std::invalid_argument("the curator audit needs a finite dataset");
  // The dataset of run 0, normalised as build() does.
  out.push_back(std::make_unique<const CuratorReleaseAudit>(
      curator::normalise(domain.grid, config_.max_norm).X, config_.curator,
      config_.curator.lift == curator::Lift::paper ? "paper" : "authors"));
  return out;
}

// The dominant terms of its memory and work, each naming its keys (Algorithm::estimate).
void PoGpUcbSystem::estimate(const protocol::ExperimentFacts& s,
                             protocol::ResourceEstimate& e) const {
  const PoGpUcbConfig& c = config_;
  const double n = static_cast<double>(s.domain_points), agents = s.agents,
               q = std::max(c.curator.r, 2);
  const double t = c.ucb.init_points + static_cast<double>(s.rounds);
  const std::string kn = key_value("points", n);
  e.memory.push_back({agents * n * (q + t + 4) * 8, key_value("agents.count", agents) + " x " + kn +
                                                        " x (" + key_value("curator.r", q) +
                                                        " + observations) (Z and the posterior)"});
  e.work.push_back({static_cast<double>(s.runs) * agents * t * n * (t + q + 10),
                    key_value("runs", s.runs) + " x " + key_value("agents.count", agents) + " x " +
                        key_value("rounds", s.rounds) + " x " + kn + " (GP-UCB steps)"});
  protocol::add_evaluation_work(s, static_cast<double>(s.runs) * agents * t,
                                key_value("runs", s.runs) + " x " +
                                    key_value("agents.count", agents) + " x (initial points + " +
                                    key_value("rounds", s.rounds) + ")",
                                e);
}

}  // namespace fbosim::systems

#include "algorithms/systems/kusner_lipschitz_release.hpp"

#include <stdexcept>

#include "algorithms/release/convex_lipschitz_sensitivity.hpp"
#include "algorithms/release/mechanisms.hpp"
#include "algorithms/systems/dp_bo_config.hpp"
#include "algorithms/systems/release_audits.hpp"

namespace fbosim::systems {

KusnerLipschitzRelease::KusnerLipschitzRelease(const DpBoConfig& c) : epsilon_(c.epsilon) {
  if (c.hyperparameter)
    throw std::invalid_argument(
        "release.hyperparameter: Kusner et al.'s Algorithm 3 (release.mechanism: "
        "kusner_lipschitz) releases the best validation score only; set "
        "release.hyperparameter: false");
  if (!c.value)
    throw std::invalid_argument(
        "release.value: release.mechanism: kusner_lipschitz releases the best validation score; "
        "it must be true");
}

std::vector<privacy::DpEvent> KusnerLipschitzRelease::agent_events() const {
  return {privacy::DpEvent::epsilon_delta(epsilon_, 0)};
}

double KusnerLipschitzRelease::sensitivity(const TunedAgent& agent) const {
  if (!agent.lipschitz)
    throw std::runtime_error(
        "release.mechanism: kusner_lipschitz needs an objective that satisfies Kusner et al.'s "
        "Assumption 2 (e.g. objective.family: landmine_logistic); agent " +
        std::to_string(agent.agent) + "'s objective certifies none");
  return release::convex_lipschitz_sensitivity(*agent.lipschitz);
}

void KusnerLipschitzRelease::release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                                     protocol::FinalRelease& out) const {
  const double sens = sensitivity(agent);
  core::RngStream rng = in.streams->stream("release", agent.stream, 0);
  protocol::ReleaseRow row;
  row.agent = agent.agent;
  row.quantity = "best_value";
  row.mechanism = "laplace";
  row.epsilon = epsilon_;
  row.delta = 0;
  row.sensitivity = sens;
  row.value = agent.y_best + release::laplace_noise(sens / epsilon_, rng);
  row.nonprivate = agent.y_best;
  row.f = agent.f_at_y_best;
  out.rows.push_back(row);
  out.events.push_back(privacy::DpEvent::epsilon_delta(epsilon_, 0));
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> KusnerLipschitzRelease::auditable(
    const TunedAgent& agent, double noise_scale) const {
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> out;
  out.push_back(std::make_unique<const LaplaceReleaseAudit>(
      epsilon_, 0, sensitivity(agent), noise_scale,
      "the best value's release by the Laplace mechanism (Kusner et al. Alg. 3)"));
  return out;
}

}  // namespace fbosim::systems

#include "algorithms/systems/kusner_release.hpp"

#include <stdexcept>

#include "algorithms/release/kusner_sensitivity.hpp"
#include "algorithms/release/mechanisms.hpp"
#include "algorithms/systems/dp_bo_config.hpp"
#include "algorithms/systems/release_audits.hpp"

namespace fbosim::systems {

KusnerRelease::KusnerRelease(const DpBoConfig& c)
    : epsilon_(c.epsilon),
      delta_(c.delta),
      hyperparameter_(c.hyperparameter),
      value_(c.value),
      noisy_(c.observations == Observations::noisy),
      greedy_gamma_(c.greedy_gamma),
      sigma1_(release::sigma1_of(c.neighbour_kernel)),
      noise_var_(noisy_ ? c.ucb.hyper.noise_var : 0),
      lengthscale_(c.ucb.hyper.lengthscale),
      de_freitas_a_(c.de_freitas_a),
      de_freitas_tau_(c.de_freitas_tau) {
  if (noisy_ && !(c.ucb.hyper.noise_var > 0))
    throw std::invalid_argument("the noisy variant needs gp.noise_var > 0");
  if (value_ && !noisy_ && (!de_freitas_a_ || !de_freitas_tau_))
    throw std::invalid_argument(
        "the noise-free value release needs de Freitas et al.'s constants A and tau "
        "(release.de_freitas.a, release.de_freitas.tau): its sensitivity cannot be computed "
        "without them");
}

std::vector<privacy::DpEvent> KusnerRelease::agent_events() const {
  std::vector<privacy::DpEvent> out;
  if (hyperparameter_) out.push_back(privacy::DpEvent::epsilon_delta(epsilon_, delta_));
  if (value_) out.push_back(privacy::DpEvent::epsilon_delta(epsilon_, delta_));
  return out;
}

void KusnerRelease::release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                            protocol::FinalRelease& out) const {
  if (hyperparameter_) release_hyperparameter(agent, in, out);
  if (value_) release_value(agent, in, out);
}

namespace {

release::KusnerSetting setting(const TunedAgent& agent, double delta, double sigma1,
                               double noise_var) {
  release::KusnerSetting s;
  s.candidates = agent.candidates->rows();
  s.observations = agent.observations;
  s.delta = delta;
  s.sigma1 = sigma1;
  s.noise_var = noise_var;
  return s;
}

}  // namespace

void KusnerRelease::release_hyperparameter(const TunedAgent& agent,
                                           const protocol::ReleaseInputs& in,
                                           protocol::FinalRelease& out) const {
  const double sens =
      release::hyperparameter_sensitivity(setting(agent, delta_, sigma1_, noise_var_));
  core::RngStream rng = in.streams->stream("release", agent.stream, 0);
  const Eigen::Index i = release::exponential_mechanism(*agent.mean, epsilon_, sens, rng);
  protocol::ReleaseRow row = candidate_row(agent, in, i, "hyperparameter", "exponential");
  row.epsilon = epsilon_;
  row.delta = delta_;
  row.sensitivity = sens;
  row.nonprivate = static_cast<double>(agent.mean_best);
  out.rows.push_back(row);
  out.events.push_back(privacy::DpEvent::epsilon_delta(epsilon_, delta_));
}

double KusnerRelease::value_sensitivity(const TunedAgent& agent) const {
  const release::KusnerSetting s = setting(agent, delta_, sigma1_, noise_var_);
  if (!noisy_)
    return release::noise_free_value_sensitivity(s, agent.dim, *de_freitas_a_, *de_freitas_tau_);
  const double gamma = greedy_gamma_
                           ? release::information_gain_bound(*agent.candidates, lengthscale_,
                                                             noise_var_, s.observations)
                           : release::trivial_information_gain_bound(noise_var_, s.observations);
  return release::value_sensitivity(s, gamma);
}

void KusnerRelease::release_value(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                                  protocol::FinalRelease& out) const {
  const double sens = value_sensitivity(agent);
  core::RngStream rng = in.streams->stream("release", agent.stream, 1);
  protocol::ReleaseRow row;
  row.agent = agent.agent;
  row.quantity = "best_value";
  row.mechanism = "laplace";
  row.epsilon = epsilon_;
  row.delta = delta_;
  row.sensitivity = sens;
  row.value = agent.y_best + release::laplace_noise(sens / epsilon_, rng);
  row.nonprivate = agent.y_best;
  row.f = agent.f_at_y_best;
  out.rows.push_back(row);
  out.events.push_back(privacy::DpEvent::epsilon_delta(epsilon_, delta_));
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> KusnerRelease::auditable(
    const TunedAgent& agent, double noise_scale) const {
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> out;
  if (hyperparameter_)
    out.push_back(std::make_unique<const ExponentialReleaseAudit>(
        agent.candidates->rows(), epsilon_, delta_,
        release::hyperparameter_sensitivity(setting(agent, delta_, sigma1_, noise_var_)),
        noise_scale));
  if (value_)
    out.push_back(std::make_unique<const LaplaceReleaseAudit>(
        epsilon_, delta_, value_sensitivity(agent), noise_scale));
  return out;
}

}  // namespace fbosim::systems

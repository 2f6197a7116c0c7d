#include "algorithms/systems/dp_bo_system.hpp"
#include "algorithms/protocol/experiment_facts.hpp"
#include "algorithms/protocol/resource_estimate.hpp"
#include "algorithms/systems/dp_bo_release_factory.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/acquisition/candidate_argmax.hpp"
#include "algorithms/release/kusner_sensitivity.hpp"

namespace fbosim::systems {

using protocol::key_value;

namespace {

constexpr double kMaxCandidates = 1e6;

}  // namespace

DpBoSystem::DpBoSystem(DpBoConfig config) : config_(std::move(config)) {
  const DpBoConfig& c = config_;
  if (c.name != "dp_bo")
    throw std::invalid_argument(fmt::format("DpBoSystem builds dp_bo, not '{}'", c.name));
  if (c.per_axis < 2)
    throw std::invalid_argument(
        fmt::format("candidates.per_axis must be >= 2, got {}", c.per_axis));
  if (!(c.epsilon > 0 && std::isfinite(c.epsilon)))
    throw std::invalid_argument(fmt::format("release.epsilon must be > 0, got {}", c.epsilon));
  if (!(c.delta > 0 && c.delta < 1))
    throw std::invalid_argument(fmt::format("release.delta must be in (0, 1), got {}", c.delta));
  (void)release::sigma1_of(c.neighbour_kernel);
  if (!c.hyperparameter && !c.value)
    throw std::invalid_argument("release: nothing to release (hyperparameter and value both off)");
  release_ = make_dp_bo_release(c);
}

Eigen::MatrixXd DpBoSystem::candidates(const core::Domain& domain) const {
  if (domain.is_grid()) return domain.grid;
  const int d = domain.dim, k = config_.per_axis;
  if (std::pow(static_cast<double>(k), d) > kMaxCandidates)
    throw std::invalid_argument(fmt::format(
        "candidates.per_axis: {}^{} candidates on the {}-dimensional box, more than {:g}", k, d, d,
        kMaxCandidates));
  const auto n = static_cast<Eigen::Index>(std::llround(std::pow(static_cast<double>(k), d)));
  Eigen::MatrixXd out(n, d);
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::Index rest = i;
    for (int j = 0; j < d; ++j) {  // the first coordinate varies fastest
      out(i, j) = static_cast<double>(rest % k) / (k - 1);
      rest /= k;
    }
  }
  return out;
}

std::vector<privacy::DpEvent> DpBoSystem::possible_events(int agents) const {
  std::vector<privacy::DpEvent> out;
  for (int n = 0; n < agents; ++n)
    for (const privacy::DpEvent& e : agent_events()) out.push_back(e);
  return out;
}

protocol::RunParts DpBoSystem::build(const protocol::RunInputs& in) const {
  const DpBoConfig& c = config_;
  auto cands = std::make_shared<const Eigen::MatrixXd>(candidates(*in.domain));
  agents::GpUcbOptions ucb = c.ucb;
  ucb.hyper.signal_var = 1;  // the paper's normalised kernel, k(x, x) = 1
  if (c.observations == Observations::noise_free) ucb.hyper.noise_var = 0;  // jitter only
  ucb.delta = c.delta / 3;  // beta_t = 2 log(|Lambda| t^2 pi^2 / (2 delta)) [R-proof]
  protocol::RunParts parts;
  std::vector<const agents::GpUcbAgent*> tuners;
  for (int n = 0; n < in.agents; ++n) {
    auto agent = std::make_unique<agents::GpUcbAgent>(n, *cands, *cands, ucb);
    tuners.push_back(agent.get());
    parts.agents.push_back(std::move(agent));
    parts.measured.push_back(n);
  }
  parts.final_release = [this, cands, tuners,
                         dim = in.domain->dim](const protocol::ReleaseInputs& rin) {
    return final_release(tuners, *cands, dim, rin);
  };
  return parts;
}

TunedAgent DpBoSystem::tuned(const agents::GpUcbAgent& tuner, std::size_t a,
                             const Eigen::MatrixXd& L, int dim,
                             const protocol::ReleaseInputs& in) const {
  TunedAgent t;
  t.agent = static_cast<int>(a);
  t.stream = a;
  t.dim = dim;
  t.candidates = &L;
  t.optimum = in.optimum(t.agent);
  if (in.convex_lipschitz_score) t.lipschitz = in.convex_lipschitz_score(t.agent);
  t.mean = &tuner.posterior().mean();
  t.mean_best = acq::CandidateArgmax::argmax(*t.mean);
  const std::vector<double>& ys = tuner.observations();
  std::size_t y_arg = 0;
  for (std::size_t k = 1; k < ys.size(); ++k)
    if (ys[k] > ys[y_arg]) y_arg = k;
  t.observations = static_cast<int>(ys.size());
  t.y_best = ys.at(y_arg);
  t.f_at_y_best =
      in.evaluate(t.agent, Eigen::VectorXd(L.row(tuner.queried().at(y_arg)).transpose()));
  return t;
}

protocol::FinalRelease DpBoSystem::final_release(
    const std::vector<const agents::GpUcbAgent*>& tuners, const Eigen::MatrixXd& L, int dim,
    const protocol::ReleaseInputs& in) const {
  protocol::FinalRelease out;
  for (std::size_t a = 0; a < tuners.size(); ++a) {
    const TunedAgent t = tuned(*tuners[a], a, L, dim, in);
    // The non-private references: argmax mu_T and the best observation.
    const protocol::ReleaseRow ref_h = candidate_row(t, in, t.mean_best, "hyperparameter", "none");
    protocol::ReleaseRow ref_v;
    ref_v.agent = t.agent;
    ref_v.quantity = "best_value";
    ref_v.mechanism = "none";
    ref_v.value = t.y_best;
    ref_v.f = t.f_at_y_best;
    release_->release(t, in, out);
    out.rows.push_back(ref_h);
    out.rows.push_back(ref_v);
  }
  return out;
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> DpBoSystem::auditable_releases(
    const protocol::AuditInputs& in) const {
  const core::Domain& domain = in.domain();
  const Eigen::MatrixXd L = candidates(domain);
  TunedAgent agent;
  agent.dim = domain.dim;
  agent.candidates = &L;
  agent.observations = config_.ucb.init_points + in.rounds;  // one query per round
  if (in.convex_lipschitz_score) agent.lipschitz = in.convex_lipschitz_score();
  return release_->auditable(agent, in.noise_scale);
}

// The dominant terms of its memory and work, each naming its keys (Algorithm::estimate).
void DpBoSystem::estimate(const protocol::ExperimentFacts& s, protocol::ResourceEstimate& e) const {
  const DpBoConfig& c = config_;
  const double n = static_cast<double>(s.domain_points) > 0 ? static_cast<double>(s.domain_points)
                                                            : std::pow(c.per_axis, 2.0);
  const double t = c.ucb.init_points + static_cast<double>(s.rounds), agents = s.agents;
  e.memory.push_back({agents * n * (t + 4) * 8,
                      key_value("agents.count", agents) + " x candidates (the posteriors)"});
  e.work.push_back({static_cast<double>(s.runs) * agents * t * n * (2 * t + 10),
                    key_value("runs", s.runs) + " x " + key_value("rounds", s.rounds) +
                        " x candidates (GP-UCB steps and the information-gain bound)"});
  protocol::add_evaluation_work(s, static_cast<double>(s.runs) * agents * t,
                                key_value("runs", s.runs) + " x " +
                                    key_value("agents.count", agents) + " x (initial points + " +
                                    key_value("rounds", s.rounds) + ")",
                                e);
}

}  // namespace fbosim::systems

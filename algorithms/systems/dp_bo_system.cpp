#include "algorithms/systems/dp_bo_system.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/acquisition/candidate_argmax.hpp"
#include "algorithms/release/kusner_sensitivity.hpp"
#include "algorithms/release/mechanisms.hpp"

namespace fbosim::systems {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
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
  if (c.mechanism == ReleaseMechanism::kusner) {
    if (c.observations == Observations::noisy && !(c.ucb.hyper.noise_var > 0))
      throw std::invalid_argument("the noisy variant needs gp.noise_var > 0");
    if (c.value && c.observations == Observations::noise_free &&
        (!c.de_freitas_a || !c.de_freitas_tau))
      throw std::invalid_argument(
          "the noise-free value release needs de Freitas et al.'s constants A and tau "
          "(release.de_freitas.a, release.de_freitas.tau): its sensitivity cannot be computed "
          "without them");
  } else {
    // The selection releases a candidate and its noisy score together: both rows, one event.
    config_.selection.base_epsilon = release::calibrate_base_epsilon(
        "rdp", c.epsilon, c.delta, c.selection.mean, c.selection.shape);
    (void)release::private_selection_event(config_.selection);
  }
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

std::vector<privacy::DpEvent> DpBoSystem::agent_events() const {
  const DpBoConfig& c = config_;
  if (c.mechanism == ReleaseMechanism::papernot_steinke)
    return {release::private_selection_event(c.selection)};
  std::vector<privacy::DpEvent> out;
  if (c.hyperparameter) out.push_back(privacy::DpEvent::epsilon_delta(c.epsilon, c.delta));
  if (c.value) out.push_back(privacy::DpEvent::epsilon_delta(c.epsilon, c.delta));
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
  const double noise_var = ucb.hyper.noise_var, lengthscale = ucb.hyper.lengthscale;
  const int dim = in.domain->dim;
  parts.final_release = [this, cands, tuners, noise_var, lengthscale,
                         dim](const protocol::ReleaseInputs& rin) {
    const DpBoConfig& c = config_;
    const Eigen::MatrixXd& L = *cands;
    protocol::FinalRelease out;
    for (std::size_t a = 0; a < tuners.size(); ++a) {
      const int n = static_cast<int>(a);
      const agents::GpUcbAgent& t = *tuners[a];
      const auto opt = rin.optimum(n);
      const auto point_row = [&](Eigen::Index i, const std::string& quantity,
                                 const std::string& mechanism) {
        protocol::ReleaseRow row;
        row.agent = n;
        row.quantity = quantity;
        row.mechanism = mechanism;
        row.value = static_cast<double>(i);
        row.point = Eigen::VectorXd(L.row(i).transpose());
        row.f = rin.evaluate(n, *row.point);
        if (opt) row.regret = *opt - *row.f;
        return row;
      };
      // The non-private references: argmax mu_T and the best observation.
      const Eigen::VectorXd& mu = t.posterior().mean();
      const Eigen::Index mu_best = acq::CandidateArgmax::argmax(mu);
      const std::vector<double>& ys = t.observations();
      std::size_t y_arg = 0;
      for (std::size_t k = 1; k < ys.size(); ++k)
        if (ys[k] > ys[y_arg]) y_arg = k;
      const double y_best = ys.at(y_arg);
      const Eigen::Index y_best_index = t.queried().at(y_arg);
      const double f_at_y_best = rin.evaluate(n, Eigen::VectorXd(L.row(y_best_index).transpose()));
      protocol::ReleaseRow ref_h = point_row(mu_best, "hyperparameter", "none");
      protocol::ReleaseRow ref_v;
      ref_v.agent = n;
      ref_v.quantity = "best_value";
      ref_v.mechanism = "none";
      ref_v.value = y_best;
      ref_v.f = f_at_y_best;

      if (c.mechanism == ReleaseMechanism::kusner) {
        release::KusnerSetting s;
        s.candidates = L.rows();
        s.observations = static_cast<int>(ys.size());
        s.delta = c.delta;
        s.sigma1 = release::sigma1_of(c.neighbour_kernel);
        s.noise_var = noise_var;
        if (c.hyperparameter) {
          const double sens = release::hyperparameter_sensitivity(s);
          core::RngStream rng = rin.streams->stream("release", a, 0);
          const Eigen::Index i = release::exponential_mechanism(mu, c.epsilon, sens, rng);
          protocol::ReleaseRow row = point_row(i, "hyperparameter", "exponential");
          row.epsilon = c.epsilon;
          row.delta = c.delta;
          row.sensitivity = sens;
          row.nonprivate = static_cast<double>(mu_best);
          out.rows.push_back(row);
          out.events.push_back(privacy::DpEvent::epsilon_delta(c.epsilon, c.delta));
        }
        if (c.value) {
          double sens;
          if (c.observations == Observations::noisy) {
            const double gamma =
                c.greedy_gamma
                    ? release::information_gain_bound(L, lengthscale, noise_var, s.observations)
                    : release::trivial_information_gain_bound(noise_var, s.observations);
            sens = release::value_sensitivity(s, gamma);
          } else {
            sens =
                release::noise_free_value_sensitivity(s, dim, *c.de_freitas_a, *c.de_freitas_tau);
          }
          core::RngStream rng = rin.streams->stream("release", a, 1);
          protocol::ReleaseRow row;
          row.agent = n;
          row.quantity = "best_value";
          row.mechanism = "laplace";
          row.epsilon = c.epsilon;
          row.delta = c.delta;
          row.sensitivity = sens;
          row.value = y_best + release::laplace_noise(sens / c.epsilon, rng);
          row.nonprivate = y_best;
          row.f = f_at_y_best;
          out.rows.push_back(row);
          out.events.push_back(privacy::DpEvent::epsilon_delta(c.epsilon, c.delta));
        }
      } else {
        core::RngStream rng = rin.streams->stream("release", a, 0);
        const release::PrivateSelection sel = release::private_selection(
            L.rows(), c.selection,
            [&](Eigen::Index i, core::RngStream& r) {
              return rin.query(n, Eigen::VectorXd(L.row(i).transpose()), r).y;
            },
            rng);
        protocol::ReleaseRow h;
        if (sel.best >= 0) {
          h = point_row(sel.best, "hyperparameter", "papernot_steinke");
        } else {  // K = 0 (Poisson): nothing released
          h.agent = n;
          h.quantity = "hyperparameter";
          h.mechanism = "papernot_steinke";
          h.value = kNaN;
        }
        h.epsilon = c.epsilon;
        h.delta = c.delta;
        h.sensitivity = c.selection.sensitivity;
        h.nonprivate = static_cast<double>(mu_best);
        h.evaluations = sel.repetitions;
        protocol::ReleaseRow v;
        v.agent = n;
        v.quantity = "best_value";
        v.mechanism = "papernot_steinke";
        v.epsilon = c.epsilon;
        v.delta = c.delta;
        v.sensitivity = c.selection.sensitivity;
        v.value = sel.best >= 0 ? sel.noisy_score : kNaN;
        v.nonprivate = y_best;
        if (sel.best >= 0) v.f = h.f;  // the truth of the released candidate's score
        out.rows.push_back(h);
        out.rows.push_back(v);
        out.events.push_back(release::private_selection_event(c.selection));
      }
      out.rows.push_back(ref_h);
      out.rows.push_back(ref_v);
    }
    return out;
  };
  return parts;
}

}  // namespace fbosim::systems

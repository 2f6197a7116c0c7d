#include "sim/audit/privacy_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <boost/math/special_functions/beta.hpp>

#include "algorithms/de/partition.hpp"
#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/privacy/accountant.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "sim/core/cancellation.hpp"
#include "sim/core/thread_pool.hpp"

namespace fbosim::audit {

double clopper_pearson_upper(long long k, long long n, double c) {
  if (k >= n) return 1.0;
  return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), c);
}

double clopper_pearson_lower(long long k, long long n, double c) {
  if (k <= 0) return 0.0;
  return boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), 1 - c);
}

double epsilon_lower_bound(double fpr, double fnr, double delta) {
  double eps = 0;
  if (fpr > 0 && 1 - delta - fnr > 0) eps = std::max(eps, std::log((1 - delta - fnr) / fpr));
  if (fnr > 0 && 1 - delta - fpr > 0) eps = std::max(eps, std::log((1 - delta - fpr) / fnr));
  return eps;
}

namespace {

double epsilon_bound(double fpr, double fnr, double delta) {
  return epsilon_lower_bound(fpr, fnr, delta);
}

// The worst-case release for the audit: the round and agent whose clipped message moves the
// release furthest in units of the noise, |(w_n^(i) (S / sqrt(P)) / (g sigma_i))_i|.
struct Canary {
  int round = 0, agent = 0;
  double shift = 0;  ///< in noise standard deviations, for the audited mechanism
  Eigen::MatrixXd weights;
  std::vector<double> stds;
};

// Counts of s > tau among sorted values.
long long above(const std::vector<double>& sorted, double tau) {
  return static_cast<long long>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), tau));
}

Canary choose_canary(const config::ExperimentSpec& spec, const server::DpMechanism& mechanism) {
  const systems::FtsDeConfig& c = *spec.fts_de();
  const int n = spec.agents, regions = c.subregions;
  const de::Partition partition(1, regions);  // the engine's agent -> sub-region rule
  std::vector<int> region(static_cast<std::size_t>(n));
  for (int a = 0; a < n; ++a) region[static_cast<std::size_t>(a)] = partition.region_of_agent(a);
  const de::WeightSchedule schedule(c.weights);
  const double g = mechanism.sampling_fraction(static_cast<std::size_t>(n));
  const double bound = server::DpMechanism::clip_bound(c.mechanism.clip_norm, regions);
  Canary best;
  // The rounds that release (0 .. rounds - 1); the first weights and agent with the largest
  // whitened shift win, so the choice is deterministic.
  for (int t = 0; t < std::max(1, spec.rounds); ++t) {
    const Eigen::MatrixXd w = schedule.weights(t, region, regions);
    const std::vector<double> stds = mechanism.noise_stds(w, static_cast<std::size_t>(n));
    for (Eigen::Index a = 0; a < n; ++a) {
      double shift2 = 0;
      for (int i = 0; i < regions; ++i) {
        const double d = w(i, a) * bound / g / stds[static_cast<std::size_t>(i)];
        shift2 += d * d;
      }
      if (std::sqrt(shift2) > best.shift * (1 + 1e-12)) {
        best.shift = std::sqrt(shift2);
        best.round = t;
        best.agent = static_cast<int>(a);
        best.weights = w;
        best.stds = stds;
      }
    }
  }
  return best;
}

}  // namespace

AuditResult run_audit(const config::ExperimentSpec& spec, const AuditOptions& o,
                      std::uint64_t seed) {
  const systems::FtsDeConfig* c = spec.fts_de();
  if (!c || !c->server || !c->dp)
    throw std::invalid_argument(fmt::format(
        "server.dp: the audit needs DP-FTS-DE's mechanism (algorithm dp_fts_de, dp_fts, or fts_de "
        "with server.dp: true); algorithm {}{} releases nothing private",
        spec.algorithm, c && c->server ? " without DP" : ""));
  if (o.trials < 100)
    throw std::invalid_argument(fmt::format("--trials must be >= 100, got {}", o.trials));
  if (!(o.confidence > 0 && o.confidence < 1))
    throw std::invalid_argument(
        fmt::format("--confidence must be in (0, 1), got {}", o.confidence));
  if (!(std::isfinite(o.noise_scale) && o.noise_scale > 0))
    throw std::invalid_argument(
        fmt::format("--noise-scale must be a finite number > 0, got {}", o.noise_scale));
  const int n = spec.agents, regions = c->subregions, m = c->features;

  server::DpMechanism::Options mo = c->mechanism;
  mo.noise_multiplier *= o.noise_scale;
  const server::DpMechanism mechanism(mo, m);
  const Canary canary = choose_canary(spec, mechanism);
  const Eigen::MatrixXd& w = canary.weights;
  // Likelihood-ratio direction of the canary's mean shift w_c^(i) (S / sqrt(P)) v / g in
  // sub-region i against independent noise of std sigma_i: sum_i w_c^(i) / sigma_i^2 <., v>.
  Eigen::VectorXd coef(regions);
  for (int i = 0; i < regions; ++i)
    coef[i] = w(i, canary.agent) /
              (canary.stds[static_cast<std::size_t>(i)] * canary.stds[static_cast<std::size_t>(i)]);
  coef /= coef.maxCoeff();
  // The canary's message: on the clipping bound, in a fixed direction.
  const double bound = server::DpMechanism::clip_bound(mo.clip_norm, regions);
  const Eigen::VectorXd direction = Eigen::VectorXd::Ones(m) / std::sqrt(static_cast<double>(m));
  const Eigen::VectorXd message = bound * direction, opposite = -message;
  server::Messages with(static_cast<std::size_t>(n), nullptr),
      without(static_cast<std::size_t>(n), nullptr);
  with[static_cast<std::size_t>(canary.agent)] = &message;
  // Fixed-size sampling is accounted for replace-one neighbours (sensitivity 2, Wang, Balle,
  // Kasiviswanathan 2019): D' replaces the canary's message by its opposite.
  if (mo.sampling == privacy::Sampling::fixed)
    without[static_cast<std::size_t>(canary.agent)] = &opposite;

  // s for every trial of both inputs; trial i of input b uses its own stream (any --threads).
  const core::RngFactory rf(seed, 0);
  const int total = 2 * o.trials;
  std::vector<double> s_with(o.trials), s_without(o.trials);
  core::ThreadPool pool(o.threads);
  pool.parallel_for(static_cast<std::size_t>(total), [&](std::size_t k) {
    core::throw_if_cancelled();  // a trial is one release of every region's message
    const bool present = k < static_cast<std::size_t>(o.trials);
    const std::size_t i = present ? k : k - o.trials;
    core::RngStream rng = rf.stream(present ? "audit.with" : "audit.without", i);
    const server::WeightedRelease r = mechanism.release(present ? with : without, w, rng);
    double s = 0;
    for (int j = 0; j < regions; ++j)
      if (coef[j] > 0) s += coef[j] * r.omegas[static_cast<std::size_t>(j)].dot(direction);
    (present ? s_with : s_without)[i] = s;
  });

  const double delta = spec.delta();
  const double level = 1 - (1 - o.confidence) / 2;  // Bonferroni over the two rates
  const auto half = static_cast<std::ptrdiff_t>(o.trials / 2);
  std::vector<double> pick_with(s_with.begin(), s_with.begin() + half),
      pick_without(s_without.begin(), s_without.begin() + half),
      test_with(s_with.begin() + half, s_with.end()),
      test_without(s_without.begin() + half, s_without.end());
  for (auto* v : {&pick_with, &pick_without, &test_with, &test_without})
    std::sort(v->begin(), v->end());

  // tau: the candidate (a first-half D' value) whose conservative bound is largest there.
  const auto n_pick = static_cast<long long>(half);
  double best_tau = pick_without.back(), best = -1;
  for (double frac = 0.5; frac * static_cast<double>(n_pick) >= 5; frac *= 0.85) {
    const double tau =
        pick_without[static_cast<std::size_t>((1 - frac) * static_cast<double>(n_pick - 1))];
    const long long fp = above(pick_without, tau), fn = n_pick - above(pick_with, tau);
    const double e = epsilon_bound(clopper_pearson_upper(fp, n_pick, level),
                                   clopper_pearson_upper(fn, n_pick, level), delta);
    if (e > best) best = e, best_tau = tau;
  }

  AuditResult res;
  res.trials = static_cast<int>(test_with.size());
  const auto n_test = static_cast<long long>(res.trials);
  res.threshold = best_tau;
  res.false_positives = above(test_without, best_tau);
  res.false_negatives = n_test - above(test_with, best_tau);
  res.fpr = static_cast<double>(res.false_positives) / static_cast<double>(n_test);
  res.fnr = static_cast<double>(res.false_negatives) / static_cast<double>(n_test);
  res.fpr_upper = clopper_pearson_upper(res.false_positives, n_test, level);
  res.fnr_upper = clopper_pearson_upper(res.false_negatives, n_test, level);
  res.epsilon_estimate = epsilon_bound(res.fpr, res.fnr, delta);
  res.epsilon_lower = epsilon_bound(res.fpr_upper, res.fnr_upper, delta);
  res.delta = delta;
  res.round = canary.round;
  res.canary = canary.agent;
  // The shift of the intact mechanism, relative to the 1 / z the accountant assumes.
  res.sensitivity_fraction = canary.shift * mo.noise_multiplier;
  res.accountant = spec.server.accountant;
  auto acc = privacy::make_accountant(spec.server.accountant);
  acc->compose(server::DpMechanism::event(c->mechanism, static_cast<std::size_t>(n)));
  res.epsilon_upper = acc->epsilon(delta).epsilon;
  return res;
}

}  // namespace fbosim::audit

#include "sim/experiment/privacy_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <boost/math/special_functions/beta.hpp>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/privacy/accountant.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "sim/core/thread_pool.hpp"

namespace fbosim::sim {

double clopper_pearson_upper(long long k, long long n, double c) {
  if (k >= n) return 1.0;
  return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), c);
}

double clopper_pearson_lower(long long k, long long n, double c) {
  if (k <= 0) return 0.0;
  return boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), 1 - c);
}

namespace {

// epsilon >= max(log((1 - delta - fnr) / fpr), log((1 - delta - fpr) / fnr)), 0 if undefined.
double epsilon_bound(double fpr, double fnr, double delta) {
  double eps = 0;
  if (fpr > 0 && 1 - delta - fnr > 0) eps = std::max(eps, std::log((1 - delta - fnr) / fpr));
  if (fnr > 0 && 1 - delta - fpr > 0) eps = std::max(eps, std::log((1 - delta - fpr) / fnr));
  return eps;
}

// Counts of s > tau among sorted values.
long long above(const std::vector<double>& sorted, double tau) {
  return static_cast<long long>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), tau));
}

}  // namespace

AuditResult run_audit(const ExperimentSpec& spec, const AuditOptions& o, std::uint64_t seed) {
  if (!spec.server.dp) throw std::invalid_argument("server.dp: the audit needs a DP mechanism");
  if (o.trials < 100)
    throw std::invalid_argument(fmt::format("--trials must be >= 100, got {}", o.trials));
  if (!(o.confidence > 0 && o.confidence < 1))
    throw std::invalid_argument(
        fmt::format("--confidence must be in (0, 1), got {}", o.confidence));
  if (!(o.noise_scale > 0))
    throw std::invalid_argument(fmt::format("--noise-scale must be > 0, got {}", o.noise_scale));
  const int n = spec.agents, regions = spec.subregions, m = spec.features;
  std::vector<int> region(n);
  for (int a = 0; a < n; ++a) region[a] = a % regions;
  const Eigen::MatrixXd w = de::WeightSchedule(spec.weights).weights(1, region, regions);
  Eigen::Index canary = 0;
  w.colwise().maxCoeff().maxCoeff(&canary);
  const Eigen::VectorXd wc = w.col(canary);  // the canary's weight in each region

  server::DpMechanism::Options mo = spec.server.mechanism;
  mo.noise_multiplier *= o.noise_scale;
  const server::DpMechanism mechanism(mo, m);
  // The canary's message: on the clipping bound, in a fixed direction.
  const double bound = server::DpMechanism::clip_bound(mo.clip_norm, regions);
  const Eigen::VectorXd direction = Eigen::VectorXd::Ones(m) / std::sqrt(static_cast<double>(m));
  const Eigen::VectorXd message = bound * direction;
  server::Messages with(n, nullptr), without(n, nullptr);
  with[static_cast<std::size_t>(canary)] = &message;

  // s for every trial of both inputs; trial i of input b uses its own stream (any --threads).
  const core::RngFactory rf(seed, 0);
  const int total = 2 * o.trials;
  std::vector<double> s_with(o.trials), s_without(o.trials);
  core::ThreadPool pool(o.threads);
  pool.parallel_for(static_cast<std::size_t>(total), [&](std::size_t k) {
    const bool present = k < static_cast<std::size_t>(o.trials);
    const std::size_t i = present ? k : k - o.trials;
    core::RngStream rng = rf.stream(present ? "audit.with" : "audit.without", i);
    const server::Release r = mechanism.release(present ? with : without, w, rng);
    double s = 0;
    for (int j = 0; j < regions; ++j) s += wc[j] * r.broadcast.omegas[j].dot(direction);
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
  res.accountant = spec.server.accountant;
  auto acc = privacy::make_accountant(spec.server.accountant);
  acc->compose({spec.server.mechanism.sampling_rate, spec.server.mechanism.noise_multiplier,
                spec.server.mechanism.sampling, n});
  res.epsilon_upper = acc->epsilon(delta).epsilon;
  return res;
}

}  // namespace fbosim::sim

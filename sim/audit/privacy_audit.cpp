#include "sim/audit/privacy_audit.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <boost/math/special_functions/beta.hpp>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "core/cancellation.hpp"
#include "core/thread_pool.hpp"
#include "datasets/objective_factory.hpp"

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

std::string AuditResult::detail(const std::string& name) const {
  for (const auto& [k, v] : details)
    if (k == name) return v;
  return "";
}

namespace {

void check_options(const AuditOptions& o) {
  if (o.trials < 100)
    throw std::invalid_argument(fmt::format("--trials must be >= 100, got {}", o.trials));
  if (!(o.confidence > 0 && o.confidence < 1))
    throw std::invalid_argument(
        fmt::format("--confidence must be in (0, 1), got {}", o.confidence));
  if (!(std::isfinite(o.noise_scale) && o.noise_scale > 0))
    throw std::invalid_argument(
        fmt::format("--noise-scale must be a finite number > 0, got {}", o.noise_scale));
}

// At most this many distinct values make a statistic discrete for the choice of tau.
constexpr std::size_t kFewValues = 16;

// Counts of s > tau among sorted values.
long long above(const std::vector<double>& sorted, double tau) {
  return static_cast<long long>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), tau));
}

// The statistics of one input and the neighbour's, each split into the half that chooses tau
// and the half that measures the rates, sorted.
struct Samples {
  std::vector<double> pick_first, pick_neighbour, test_first, test_neighbour;
};

// s for every trial of both inputs; trial i of an input uses its own stream (any --threads).
Samples sample(const protocol::AuditableRelease& release, const AuditOptions& o,
               std::uint64_t seed) {
  const core::RngFactory rf(seed, 0);
  const auto [first_name, neighbour_name] = release.inputs();
  const std::string first_stream = "audit." + first_name,
                    neighbour_stream = "audit." + neighbour_name;
  const auto trials = static_cast<std::size_t>(o.trials);
  std::vector<double> first(trials), neighbour(trials);
  core::ThreadPool pool(o.threads);
  pool.parallel_for(2 * trials, [&](std::size_t k) {
    core::throw_if_cancelled();  // a trial is one release
    const bool is_neighbour = k >= trials;
    const std::size_t i = is_neighbour ? k - trials : k;
    core::RngStream rng = rf.stream(is_neighbour ? neighbour_stream : first_stream, i);
    (is_neighbour ? neighbour : first)[i] = release.statistic(is_neighbour, rng);
  });
  const auto half = static_cast<std::ptrdiff_t>(o.trials / 2);
  Samples s{{first.begin(), first.begin() + half},
            {neighbour.begin(), neighbour.begin() + half},
            {first.begin() + half, first.end()},
            {neighbour.begin() + half, neighbour.end()}};
  for (auto* v : {&s.pick_first, &s.pick_neighbour, &s.test_first, &s.test_neighbour})
    std::sort(v->begin(), v->end());
  return s;
}

// tau: among D's upper quantiles on the choosing half (and, when D's and D''s statistics do not
// overlap there, a point of the gap; for a discrete statistic, the midpoints of its values),
// the candidate whose conservative bound is largest there.
double choose_threshold(const Samples& s, double level, double delta) {
  const auto n = static_cast<long long>(s.pick_first.size());
  double best_tau = s.pick_first.back(), best = -1;
  const auto consider = [&](double tau) {
    const long long fp = above(s.pick_first, tau), fn = n - above(s.pick_neighbour, tau);
    const double e = epsilon_lower_bound(clopper_pearson_upper(fp, n, level),
                                         clopper_pearson_upper(fn, n, level), delta);
    if (e > best) best = e, best_tau = tau;
  };
  for (double frac = 0.5; frac * static_cast<double>(n) >= 5; frac *= 0.85)
    consider(s.pick_first[static_cast<std::size_t>((1 - frac) * static_cast<double>(n - 1))]);
  // A statistic with few values (a released index) is also cut between each two of them: D's
  // upper quantiles may all be its largest value.
  std::vector<double> values(s.pick_first.begin(), s.pick_first.end());
  values.insert(values.end(), s.pick_neighbour.begin(), s.pick_neighbour.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  if (values.size() <= kFewValues)
    for (std::size_t k = 0; k + 1 < values.size(); ++k) consider((values[k] + values[k + 1]) / 2);
  const double top = s.pick_first.back(), low = s.pick_neighbour.front();
  // The geometric midpoint of a gap between positive statistics (the curator's: rounding for D,
  // 1e-4 or more for D'), the top of D's otherwise.
  if (top < low) consider(top > 0 ? std::sqrt(top * low) : top);
  return best_tau;
}

}  // namespace

Claim claimed(const privacy::DpEvent& event, const config::ExperimentSpec& spec) {
  if (const auto* e = event.as<privacy::EpsilonDelta>()) return {e->epsilon, e->delta, "stated"};
  auto acc = privacy::make_accountant(spec.server.accountant);
  acc->compose(event);
  const double delta = spec.delta();
  return {acc->epsilon(delta).epsilon, delta, spec.server.accountant};
}

AuditResult audit_release(const protocol::AuditableRelease& release, const Claim& claim,
                          const AuditOptions& o, std::uint64_t seed) {
  check_options(o);
  const Samples s = sample(release, o, seed);
  const double level = 1 - (1 - o.confidence) / 2;  // Bonferroni over the two rates
  AuditResult res;
  res.release = release.name();
  res.inputs = release.inputs();
  res.details = release.details();
  res.threshold = choose_threshold(s, level, claim.delta);
  res.trials = static_cast<int>(s.test_first.size());
  const auto n = static_cast<long long>(res.trials);
  res.false_positives = above(s.test_first, res.threshold);
  res.false_negatives = n - above(s.test_neighbour, res.threshold);
  res.max_first = s.test_first.back();
  res.min_neighbour = s.test_neighbour.front();
  res.fpr = static_cast<double>(res.false_positives) / static_cast<double>(n);
  res.fnr = static_cast<double>(res.false_negatives) / static_cast<double>(n);
  res.fpr_upper = clopper_pearson_upper(res.false_positives, n, level);
  res.fnr_upper = clopper_pearson_upper(res.false_negatives, n, level);
  res.epsilon_estimate = epsilon_lower_bound(res.fpr, res.fnr, claim.delta);
  res.epsilon_lower = epsilon_lower_bound(res.fpr_upper, res.fnr_upper, claim.delta);
  res.epsilon_upper = claim.epsilon;
  res.delta = claim.delta;
  res.accountant = claim.accountant;
  return res;
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable_releases(
    const config::ExperimentSpec& spec, double noise_scale) {
  // Agent 0's objective in run 0, built on first use (it may load a data set); the releases
  // copy what they need of its domain.
  std::shared_ptr<const datasets::ObjectiveFamily> family;
  std::shared_ptr<const datasets::Objective> objective;
  protocol::AuditInputs in;
  in.agents = spec.agents;
  in.rounds = spec.rounds;
  if (spec.schedule.kind == protocol::ScheduleKind::buffered) in.buffer = spec.schedule.buffer;
  in.noise_scale = noise_scale;
  in.domain = [&]() -> const core::Domain& {
    if (!objective) {
      family = datasets::make_objective_family(spec.objective);
      objective = family->make(1, core::RngFactory(spec.seed, 0)).at(0);
    }
    return objective->domain();
  };
  in.convex_lipschitz_score = [&]() {
    (void)in.domain();  // builds agent 0's objective
    return objective->convex_lipschitz_score();
  };
  auto releases = spec.system->auditable_releases(in);
  if (releases.empty())
    throw std::invalid_argument(
        spec.system->is_private(spec.agents)
            ? fmt::format("algorithm {} lists no release that `fbosim audit` can run "
                          "(protocol::Algorithm::auditable_releases)",
                          spec.algorithm)
            : fmt::format("algorithm {} releases nothing private as configured (e.g. "
                          "server.dp: false), so `fbosim audit` has nothing to test",
                          spec.algorithm));
  return releases;
}

std::vector<AuditResult> run_audits(const config::ExperimentSpec& spec, const AuditOptions& o,
                                    std::uint64_t seed) {
  check_options(o);
  std::vector<AuditResult> out;
  for (const auto& r : auditable_releases(spec, o.noise_scale))
    out.push_back(audit_release(*r, claimed(r->event(), spec), o, seed));
  return out;
}

}  // namespace fbosim::audit

// Each duration model's draws against its distribution at a fixed seed: the sample mean within
// 4 standard errors of the closed-form mean (the standard error from the closed-form variance),
// the sample variance within 5 % where the fourth moment is finite, and the Kolmogorov-Smirnov
// statistic against the CDF (written here from the textbook formulas, not from the models)
// below 1.95 / sqrt(n), its 0.1 % critical value.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "core/rng.hpp"
#include "sim/timeline/constant_duration.hpp"
#include "sim/timeline/duration_factory.hpp"
#include "sim/timeline/exponential_duration.hpp"
#include "sim/timeline/half_normal_duration.hpp"
#include "sim/timeline/lognormal_duration.hpp"
#include "sim/timeline/pareto_duration.hpp"
#include "sim/timeline/uniform_duration.hpp"

using namespace fbosim::timeline;
using Catch::Matchers::Contains;

namespace {
constexpr int kDraws = 100000;

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

std::vector<double> draws(const DurationModel& m, std::uint64_t seed) {
  fbosim::core::RngStream rng(seed);
  std::vector<double> x(kDraws);
  for (double& v : x) v = m.draw(rng);
  return x;
}

void check_moments(const DurationModel& m, const std::vector<double>& x, bool check_variance) {
  double sum = 0;
  for (const double v : x) sum += v;
  const double mean = sum / kDraws;
  double ss = 0;
  for (const double v : x) ss += (v - mean) * (v - mean);
  const double var = ss / (kDraws - 1);
  CHECK(std::fabs(mean - m.mean()) < 4 * std::sqrt(m.variance() / kDraws));
  if (check_variance) CHECK(var == Approx(m.variance()).epsilon(0.05));
}

double ks_statistic(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  double d = 0;
  const double n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  return d;
}

const double kKsCritical = 1.95 / std::sqrt(static_cast<double>(kDraws));
}  // namespace

TEST_CASE("duration models: closed-form means and variances") {
  CHECK(ConstantDuration(2.5).mean() == 2.5);
  CHECK(ConstantDuration(2.5).variance() == 0);
  CHECK(UniformDuration(1, 3).mean() == 2);
  CHECK(UniformDuration(1, 3).variance() == Approx(4.0 / 12));
  CHECK(HalfNormalDuration(2).mean() == Approx(2 * std::sqrt(2 / std::numbers::pi)));
  CHECK(HalfNormalDuration(2).variance() == Approx(4 * (1 - 2 / std::numbers::pi)));
  CHECK(ExponentialDuration(3).variance() == 9);
  CHECK(LognormalDuration(2, 0.5).mean() == 2);
  CHECK(LognormalDuration(2, 0.5).variance() == Approx(4 * (std::exp(0.25) - 1)));
  CHECK(ParetoDuration(1, 3).mean() == Approx(1.5));
  CHECK(ParetoDuration(1, 3).variance() == Approx(3.0 / (4 * 1)));
  CHECK(std::isinf(ParetoDuration(1, 1.5).variance()));
}

TEST_CASE("duration models: constant draws its mean and reads no stream") {
  const ConstantDuration m(0.75);
  fbosim::core::RngStream a(1), b(1);
  CHECK(m.draw(a) == 0.75);
  CHECK_FALSE(m.random());
  CHECK(a.uniform() == b.uniform());
}

TEST_CASE("duration models: uniform against U(low, high)") {
  const UniformDuration m(0.5, 2.0);
  const std::vector<double> x = draws(m, 11);
  check_moments(m, x, true);
  CHECK(ks_statistic(x, [](double v) { return (v - 0.5) / 1.5; }) < kKsCritical);
  CHECK(*std::min_element(x.begin(), x.end()) >= 0.5);
  CHECK(*std::max_element(x.begin(), x.end()) < 2.0);
}

TEST_CASE("duration models: half-normal against |N(0, sigma^2)|") {
  const HalfNormalDuration m(1.5);
  const std::vector<double> x = draws(m, 12);
  check_moments(m, x, true);
  CHECK(ks_statistic(x, [](double v) { return 2 * normal_cdf(v / 1.5) - 1; }) < kKsCritical);
}

TEST_CASE("duration models: exponential against Exp(mean)") {
  const ExponentialDuration m(2.0);
  const std::vector<double> x = draws(m, 13);
  check_moments(m, x, true);
  CHECK(ks_statistic(x, [](double v) { return 1 - std::exp(-v / 2.0); }) < kKsCritical);
}

TEST_CASE("duration models: lognormal against exp(N(mu, sigma^2)), mu = log(mean) - sigma^2/2") {
  const LognormalDuration m(1.0, 0.5);
  const std::vector<double> x = draws(m, 14);
  check_moments(m, x, true);
  const double mu = -0.125;
  CHECK(ks_statistic(x, [mu](double v) { return normal_cdf((std::log(v) - mu) / 0.5); }) <
        kKsCritical);
}

TEST_CASE("duration models: Pareto against 1 - (scale / x)^shape") {
  const ParetoDuration m(0.5, 5.0);  // shape > 4: a finite fourth moment for the variance check
  const std::vector<double> x = draws(m, 15);
  check_moments(m, x, true);
  CHECK(ks_statistic(x, [](double v) { return 1 - std::pow(0.5 / v, 5.0); }) < kKsCritical);
  CHECK(*std::min_element(x.begin(), x.end()) >= 0.5);
  const ParetoDuration heavy(1.0, 1.5);  // infinite variance: the CDF only
  CHECK(ks_statistic(draws(heavy, 16), [](double v) { return 1 - std::pow(1.0 / v, 1.5); }) <
        kKsCritical);
}

TEST_CASE("duration models: bad parameters are errors naming the key and the value") {
  CHECK_THROWS_WITH(ConstantDuration(0),
                    "timing.duration.mean must be in (0, 1e+09] seconds, got 0");
  CHECK_THROWS_WITH(ExponentialDuration(-2),
                    Contains("timing.duration.mean") && Contains("got -2"));
  CHECK_THROWS_WITH(UniformDuration(2, 1),
                    "timing.duration.high must be > timing.duration.low = 2, got 1");
  CHECK_THROWS_WITH(UniformDuration(-1, 1), Contains("timing.duration.low") && Contains("got -1"));
  CHECK_THROWS_WITH(HalfNormalDuration(std::nan("")), Contains("timing.duration.sigma"));
  CHECK_THROWS_WITH(LognormalDuration(1, 6), "timing.duration.sigma must be in (0, 5], got 6");
  CHECK_THROWS_WITH(ParetoDuration(1, 1),
                    "timing.duration.shape must be a finite number > 1 (a finite mean), got 1");
  CHECK_THROWS_WITH(ParetoDuration(0, 3), Contains("timing.duration.scale"));
  DurationSpec s;
  s.model = DurationKind::lognormal;
  s.sigma = 0;
  CHECK_THROWS_WITH(make_duration_model(s), Contains("timing.duration.sigma") && Contains("got 0"));
  s.sigma = 0.5;
  CHECK(make_duration_model(s)->mean() == 1.0);
}

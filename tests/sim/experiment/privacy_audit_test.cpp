#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "sim/experiment/config_loader.hpp"
#include "sim/experiment/privacy_audit.hpp"

using namespace fbosim::sim;

namespace {
ExperimentSpec spec(const std::vector<std::string>& sets) {
  return load_config_text(
             "agents: {count: 50}\nrff: {features: 20}\nexploration: {subregions: 1}\n"
             "server: {dp: true, sampling_rate: 1.0, noise_multiplier: 1.0, clip_norm: 11}\n",
             "audit.yaml", "audit", sets)
      .spec;
}
AuditResult audit(const ExperimentSpec& s, double noise_scale = 1.0, int threads = 2) {
  AuditOptions o;
  o.trials = 40000;
  o.threads = threads;
  o.noise_scale = noise_scale;
  return run_audit(s, o, 7);
}
}  // namespace

TEST_CASE("the audit of the intact mechanism stays below the accountant's bound, with power") {
  // q = 1, P = 1: the canary shifts the release by exactly one noise standard deviation / z,
  // the case the accountant's bound is computed for, so the audit can come close to it.
  const AuditResult r = audit(spec({}));
  CHECK_FALSE(r.violation());
  CHECK(r.epsilon_lower <= r.epsilon_upper);
  CHECK(r.epsilon_lower > 1.0);
  CHECK(r.epsilon_lower <= r.epsilon_estimate);
  // The paper's setting: subsampling and DE weights only make the canary harder to see.
  const AuditResult paper = audit(spec({"server.sampling_rate=0.25", "exploration.subregions=2"}));
  CHECK_FALSE(paper.violation());
}

TEST_CASE("a broken mechanism (noise halved) makes the audit exceed the bound") {
  // Halving the noise doubles the shift-to-noise ratio to 2: the threshold test then sees an
  // epsilon near log(Phi(-1.5) / Phi(-3.5)) ~ 5.7 at tau = 3.5 sd, above the moments bound
  // 3.94 of the intact mechanism (q = 1, z = 1, delta = 50^-1.1), even with 20000 measured
  // trials per input.
  const AuditResult r = audit(spec({}), 0.5);
  INFO("lower " << r.epsilon_lower << " upper " << r.epsilon_upper);
  CHECK(r.violation());
}

TEST_CASE("the audit is identical for any thread count") {
  const AuditResult a = audit(spec({}), 1.0, 1), b = audit(spec({}), 1.0, 3);
  CHECK(a.threshold == b.threshold);
  CHECK(a.false_positives == b.false_positives);
  CHECK(a.false_negatives == b.false_negatives);
}

TEST_CASE("Clopper-Pearson bounds match their closed forms") {
  // k = 0: upper = 1 - (1 - c)^(1/n); k = n: lower = (1 - c)^(1/n).
  CHECK(clopper_pearson_upper(0, 100, 0.95) == Approx(1 - std::pow(0.05, 1.0 / 100)));
  CHECK(clopper_pearson_lower(100, 100, 0.95) == Approx(std::pow(0.05, 1.0 / 100)));
  // Symmetry: upper(k, n) = 1 - lower(n - k, n).
  CHECK(clopper_pearson_upper(7, 50, 0.9) == Approx(1 - clopper_pearson_lower(43, 50, 0.9)));
  // n = 1, k = 0 ... 1: the bounds of a single Bernoulli trial.
  CHECK(clopper_pearson_upper(0, 1, 0.95) == Approx(0.95));
  CHECK(clopper_pearson_lower(0, 10, 0.95) == 0.0);
  CHECK(clopper_pearson_upper(10, 10, 0.95) == 1.0);
}

TEST_CASE("the audit refuses configs without DP and bad options") {
  CHECK_THROWS_AS(audit(spec({"server.dp=false"})), std::invalid_argument);
  AuditOptions o;
  o.trials = 10;
  CHECK_THROWS_AS(run_audit(spec({}), o, 1), std::invalid_argument);
  o.trials = 1000;
  o.confidence = 1.5;
  CHECK_THROWS_AS(run_audit(spec({}), o, 1), std::invalid_argument);
}

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <stdexcept>

#include "sim/audit/privacy_audit.hpp"
#include "sim/config/config_loader.hpp"

using namespace fbosim::config;
using namespace fbosim::audit;

namespace {
ExperimentSpec spec(const std::vector<std::string>& sets) {
  return load_config_text(
             "agents: {count: 50}\nrff: {features: 20}\nexploration: {subregions: 1}\n"
             "server: {dp: true, sampling_rate: 1.0, noise_multiplier: 1.0, clip_norm: 11,\n"
             "         delta_rule: paper}\n",  // the broken variants are sized at N^-1.1
             "audit.yaml", "audit", sets)
      .spec;
}
AuditResult audit(const ExperimentSpec& s, double noise_scale = 1.0, int threads = 2,
                  int trials = 40000) {
  AuditOptions o;
  o.trials = trials;
  o.threads = threads;
  o.noise_scale = noise_scale;
  const std::vector<AuditResult> r = run_audits(s, o, 7);
  REQUIRE(r.size() == 1);  // the server's release
  return r[0];
}
int round_of(const AuditResult& r) { return std::stoi(r.detail("round")); }
int canary_of(const AuditResult& r) { return std::stoi(r.detail("canary")); }
double fraction_of(const AuditResult& r) { return std::stod(r.detail("sensitivity_fraction")); }
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

TEST_CASE("at q = 0.25 with P = 2 and P = 4 the audit flags halved noise, not the intact one") {
  // Issue #10: with the DE weights of round 1 the canary carries w_max in one sub-region only
  // and shifts the release by 1 / (z sqrt(P)), so halved noise (2 / sqrt(P)) was within the
  // bound. From round 10 on (a_t = 1, the default schedule) every agent carries w_max = 1/N in
  // every sub-region: the shift is the full 1 / z and halving the noise doubles it to 2, which
  // at q = 0.25 gives about log(0.25 Phi(-0.7) / Phi(-2.7)) ~ 3 against the moments bound
  // ~1.9 of the intact mechanism; the intact one (shift 1) stays near 0.5.
  for (const int P : {2, 4}) {
    INFO("P = " << P);
    const ExperimentSpec s =
        spec({"server.sampling_rate=0.25", "exploration.subregions=" + std::to_string(P)});
    const AuditResult intact = audit(s);
    INFO("intact: lower " << intact.epsilon_lower << " upper " << intact.epsilon_upper);
    CHECK_FALSE(intact.violation());
    CHECK(round_of(intact) == 10);
    CHECK(fraction_of(intact) == Approx(1).epsilon(1e-12));
    const AuditResult halved = audit(s, 0.5);
    INFO("halved: lower " << halved.epsilon_lower << " upper " << halved.epsilon_upper);
    CHECK(halved.violation());
    // The server.w_max: per_region mechanism is audited the same way.
    std::vector<std::string> per_region = {"server.sampling_rate=0.25", "server.w_max=per_region",
                                           "exploration.subregions=" + std::to_string(P)};
    CHECK(audit(spec(per_region), 0.5).violation());
  }
}

TEST_CASE("the canary is the worst-case release: weights that never become uniform") {
  // Non-adaptive weights keep a_t = 16: with N = 50 in P = 4 regions (13, 13, 12, 12 agents),
  // an agent of a 12-agent region carries w_max = 1 / (12 + 38 e^-15) in its region and
  // e^-15 / (13 + 37 e^-15) or less elsewhere, so its shift is sqrt(1 + O(e^-30)) / sqrt(4)
  // of the sensitivity; agent 2 is the first such agent, round 0 the first round.
  const AuditResult r = audit(spec({"server.sampling_rate=0.25", "exploration.subregions=4",
                                    "exploration.weights.adaptive=false"}),
                              1.0, 2, 1000);
  CHECK(round_of(r) == 0);
  CHECK(canary_of(r) == 2);
  CHECK(fraction_of(r) == Approx(0.5).epsilon(1e-9));
  // P = 1, q = 1: every agent has weight 1/N; the first agent of the first round.
  const AuditResult one = audit(spec({}), 1.0, 2, 1000);
  CHECK(round_of(one) == 0);
  CHECK(canary_of(one) == 0);
  CHECK(fraction_of(one) == Approx(1).epsilon(1e-12));
  // The fraction is of the intact mechanism's sensitivity: the same with the noise halved.
  CHECK(fraction_of(audit(spec({}), 0.5, 2, 1000)) == Approx(1).epsilon(1e-12));
}

TEST_CASE("fixed-size sampling is audited with replace-one neighbours") {
  // D' replaces the canary's message by its opposite: the shift between D and D' is twice the
  // canary's, the sensitivity 2 the RDP accountant assumes for fixed-size sampling.
  const ExperimentSpec s = spec({"server.sampling=fixed", "server.accountant=rdp",
                                 "server.sampling_rate=0.25", "exploration.subregions=2"});
  const AuditResult intact = audit(s);
  INFO("intact: lower " << intact.epsilon_lower << " upper " << intact.epsilon_upper);
  CHECK_FALSE(intact.violation());
  CHECK(intact.epsilon_lower > 0.3);  // the audit sees the canary at all
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
  CHECK_THROWS_WITH(
      audit(spec({"algorithm=fts_de", "server.dp=false", "exploration.subregions=2"})),
      Catch::Contains("releases nothing private") && Catch::Contains("server.dp: false"));
  AuditOptions o;
  o.trials = 10;
  CHECK_THROWS_AS(run_audits(spec({}), o, 1), std::invalid_argument);
  o.trials = 1000;
  o.confidence = 1.5;
  CHECK_THROWS_AS(run_audits(spec({}), o, 1), std::invalid_argument);
  o.confidence = 0.95;
  for (const double bad : {std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(), 0.0, -0.5}) {
    o.noise_scale = bad;
    CHECK_THROWS_WITH(run_audits(spec({}), o, 1), Catch::Contains("--noise-scale") &&
                                                      Catch::Contains(fmt::format("got {}", bad)));
  }
}

TEST_CASE("exploration.weights.* values that make the weights meaningless are config errors") {
  for (const std::string& set :
       {std::string("exploration.weights.start=.inf"),
        std::string("exploration.weights.start=.nan"), std::string("exploration.weights.start=0.5"),
        std::string("exploration.weights.end=.nan"), std::string("exploration.weights.end=17"),
        std::string("exploration.weights.hold=-1"), std::string("exploration.weights.decay=-1")}) {
    INFO(set);
    const std::string key = set.substr(0, set.find('='));
    std::string value = set.substr(set.find('=') + 1);
    if (value[0] == '.') value = value.substr(1);  // YAML .inf / .nan print as inf / nan
    CHECK_THROWS_WITH(spec({set}), Catch::Contains("audit.yaml") && Catch::Contains(key) &&
                                       Catch::Contains(value));
  }
  // A start far beyond exp's range is valid: the weights are computed stably (issue #10).
  const AuditResult r = audit(spec({"exploration.weights.start=710", "exploration.subregions=2",
                                    "exploration.weights.adaptive=false"}),
                              1.0, 2, 1000);
  CHECK(fraction_of(r) == Approx(1 / std::sqrt(2.0)).epsilon(1e-12));
}

// `fbosim audit` of a buffered release (issue 41 sec. 4): K arrivals charged at q = 1, the
// claim being what the run's ledger charges (run::charged_event); the intact release stays
// below its claim of a few units, and the two broken variants the issue names are caught: two
// messages of the canary in one release charged once, and weights renormalised over the
// arrivals. Sized so that a threshold test with 50000 measured trials per input can see them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "algorithms/server/buffered_release_audit.hpp"
#include "sim/audit/privacy_audit.hpp"
#include "sim/config/config_loader.hpp"

using namespace fbosim;
using namespace fbosim::audit;
using server::BufferedBreak;
using server::BufferedReleaseAudit;

namespace {

config::ExperimentSpec buffered_spec(const std::vector<std::string>& sets = {}) {
  return config::load_config_text(
             "agents: {count: 50}\nrff: {features: 20}\nexploration: {subregions: 1}\n"
             "server: {dp: true, sampling_rate: 1.0, noise_multiplier: 1.0, clip_norm: 11,\n"
             "         delta: 1.0e-5, accountant: pld}\n"
             "schedule: {kind: buffered, buffer: 10}\n",
             "audit.yaml", "audit", sets)
      .spec;
}

AuditOptions options() {
  AuditOptions o;
  o.trials = 100000;
  o.threads = 2;
  return o;
}

server::DpMechanism::Options mechanism(double q, privacy::Sampling sampling) {
  server::DpMechanism::Options o;
  o.sampling_rate = q;
  o.sampling = sampling;
  o.noise_multiplier = 1.0;
  o.clip_norm = 11;
  return o;
}

AuditResult audit_buffered(const config::ExperimentSpec& spec, BufferedBreak broken) {
  BufferedReleaseAudit::Setting setting;
  setting.broken = broken;
  const BufferedReleaseAudit release(mechanism(1.0, privacy::Sampling::poisson), 20, spec.agents, 1,
                                     de::WeightSchedule::Options{}, spec.rounds, 10, setting);
  return audit_release(release, claimed(release.event(), spec), options(), 7);
}

}  // namespace

TEST_CASE("the buffered audit's arrivals hold the canary once, K is checked") {
  const BufferedReleaseAudit release(mechanism(0.5, privacy::Sampling::poisson), 20, 50, 2,
                                     de::WeightSchedule::Options{}, 5, 10, {});
  CHECK(release.arrivals().size() == 10);
  CHECK(std::count(release.arrivals().begin(), release.arrivals().end(), release.canary()) == 1);
  CHECK_THROWS_WITH(
      BufferedReleaseAudit(mechanism(1.0, privacy::Sampling::poisson), 20, 50, 1, {}, 5, 51, {}),
      Catch::Contains("schedule.buffer must be in 1..50"));
}

TEST_CASE("renormalised weights: the arrivals' weights scaled to the sum over all agents") {
  const auto o = mechanism(1.0, privacy::Sampling::poisson);
  const BufferedReleaseAudit intact(o, 20, 8, 1, {}, 5, 2, {});
  BufferedReleaseAudit::Setting s;
  s.broken = BufferedBreak::renormalised;
  const BufferedReleaseAudit r(o, 20, 8, 1, {}, 5, 2, s);
  const Eigen::MatrixXd& fixed = intact.weights();
  const Eigen::MatrixXd& w = r.weights();
  REQUIRE(r.arrivals() == intact.arrivals());
  const int a = r.arrivals()[0], b = r.arrivals()[1];
  // The two arrivals carry the whole row's weight, in their fixed proportion; the others none.
  CHECK(w(0, a) + w(0, b) == Approx(fixed.row(0).sum()));
  CHECK(w(0, a) / w(0, b) == Approx(fixed(0, a) / fixed(0, b)));
  CHECK(w.sum() == Approx(fixed.sum()));
  // Two messages of the canary: a ninth column with the canary's weights.
  s.broken = BufferedBreak::charged_once;
  const BufferedReleaseAudit twice(o, 20, 8, 1, {}, 5, 2, s);
  REQUIRE(twice.weights().cols() == 9);
  CHECK(twice.weights().col(8) == fixed.col(twice.canary()));
}

TEST_CASE("fbosim audit of a buffered config: the intact release stays below its claim") {
  const std::vector<AuditResult> r = run_audits(buffered_spec(), options(), 7);
  REQUIRE(r.size() == 1);
  CHECK(r[0].release.find("buffered") != std::string::npos);
  INFO("lower " << r[0].epsilon_lower << " upper " << r[0].epsilon_upper);
  CHECK(r[0].epsilon_upper > 3);  // Gaussian(z = 1) at delta 1e-5: about 4.4, a few units
  CHECK(r[0].epsilon_upper < 6);
  CHECK_FALSE(r[0].violation());
  CHECK(r[0].epsilon_lower > 2);  // with power: the canary's full shift 1 / z is seen
}

TEST_CASE("audit: two messages of the canary in one buffered release charged once are caught") {
  const config::ExperimentSpec spec = buffered_spec();
  const AuditResult ok = audit_buffered(spec, BufferedBreak::none);
  INFO("intact: lower " << ok.epsilon_lower << " upper " << ok.epsilon_upper);
  CHECK_FALSE(ok.violation());
  const AuditResult bad = audit_buffered(spec, BufferedBreak::charged_once);
  INFO("charged once: lower " << bad.epsilon_lower << " upper " << bad.epsilon_upper);
  CHECK(bad.violation());
}

TEST_CASE("audit: weights renormalised over a buffered release's arrivals are caught") {
  const AuditResult bad = audit_buffered(buffered_spec(), BufferedBreak::renormalised);
  INFO("renormalised: lower " << bad.epsilon_lower << " upper " << bad.epsilon_upper);
  CHECK(bad.violation());
}

#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "algorithms/agents/ensemble_target_agent.hpp"
#include "algorithms/agents/fts_source_agent.hpp"

using namespace fbosim;
using Method = agents::EnsembleOptions::Method;

namespace {
double f(const Eigen::VectorXd& x) { return std::sin(6 * x[0]) + 0.5 * x[1]; }

std::shared_ptr<const agents::SharedContext> context() {
  core::Domain d;
  d.dim = 2;
  core::RngStream rng(41);
  return std::make_shared<const agents::SharedContext>(
      d, rff::RandomFeatures::draw(2, 60, 0.3, 1.0, rng), de::Partition(2, 1));
}

// The summary a source sends after observing `n` points of g.
std::shared_ptr<const protocol::Message> summary(
    const std::shared_ptr<const agents::SharedContext>& ctx, double (*g)(const Eigen::VectorXd&),
    int n, std::uint64_t seed) {
  core::RngStream rng(seed);
  protocol::History h{Eigen::MatrixXd(n, 2), Eigen::VectorXd(n)};
  for (int k = 0; k < n; ++k) {
    h.X.row(k) << rng.uniform(), rng.uniform();
    h.y[k] = g(h.X.row(k).transpose());
  }
  agents::FtsSourceOptions o;
  o.message = agents::SourceMessage::summary_with_incumbent;
  o.message_lambda = 0.01;
  agents::FtsSourceAgent source(1, ctx, h, h, o);
  return std::make_shared<const protocol::Message>(*source.report(0, rng));
}

double noise(const Eigen::VectorXd& x) {  // a function unrelated to f
  return std::cos(40 * x[0] * x[1] + 3);
}

agents::EnsembleTargetAgent target(const std::shared_ptr<const agents::SharedContext>& ctx,
                                   Method method) {
  agents::EnsembleOptions o;
  o.method = method;
  o.message_lambda = 0.01;
  o.local.hyper = {0.3, 1.0, 1e-4};
  o.local.maximiser = {200, 3, 15};
  agents::EnsembleTargetAgent a(0, ctx, o);
  core::RngStream rng(3);
  for (int k = 0; k < 12; ++k) {
    const Eigen::VectorXd x(Eigen::Vector2d(rng.uniform(), rng.uniform()));
    a.observe(x, f(x));
  }
  return a;
}
}  // namespace

TEST_CASE("RGPE and TAF weigh a source that ranks the target's data well above an unrelated one") {
  const auto ctx = context();
  protocol::PeerMessages peers;
  peers.messages = {nullptr, summary(ctx, f, 150, 1), summary(ctx, noise, 150, 2)};
  const core::RngFactory streams(1, 0);
  for (const Method m : {Method::rgpe, Method::taf}) {
    INFO((m == Method::rgpe ? "RGPE" : "TAF"));
    agents::EnsembleTargetAgent a = target(ctx, m);
    core::RngStream rng(5);
    const protocol::Proposal p = a.propose(1, peers, rng, streams);
    CHECK(std::string(p.source) == "ensemble");
    const Eigen::VectorXd& w = a.last_weights();  // related, unrelated, target
    REQUIRE(w.size() == 3);
    CHECK(w[0] > w[1]);
    if (m == Method::rgpe) CHECK(w.sum() == Approx(1.0));
    if (m == Method::taf) CHECK(w[2] == 0.75);
    CHECK(((p.x.array() >= 0) && (p.x.array() <= 1)).all());
  }
}

TEST_CASE("acquisition.method direct: RGPE / TAF maximise by DIRECT, which draws nothing") {
  // TAF (corrected) draws nothing but the maximiser's points, so with DIRECT two streams give
  // the same proposal, and it is a DIRECT centre: each coordinate an odd multiple of 1 / (2 3^j).
  const auto ctx = context();
  protocol::PeerMessages peers;
  peers.messages = {nullptr, summary(ctx, f, 150, 1), summary(ctx, noise, 150, 2)};
  const core::RngFactory streams(1, 0);
  agents::EnsembleOptions o;
  o.method = Method::taf;
  o.variant = ensemble::Variant::corrected;
  o.message_lambda = 0.01;
  o.local.hyper = {0.3, 1.0, 1e-4};
  o.local.acquisition.method = acq::Method::direct;
  o.local.acquisition.direct.max_evaluations = 3000;
  auto propose = [&](std::uint64_t seed) {
    agents::EnsembleTargetAgent a(0, ctx, o);
    core::RngStream data(3);
    for (int k = 0; k < 12; ++k) {
      const Eigen::VectorXd x(Eigen::Vector2d(data.uniform(), data.uniform()));
      a.observe(x, f(x));
    }
    core::RngStream rng(seed);
    return a.propose(1, peers, rng, streams).x;
  };
  const Eigen::VectorXd x = propose(5);
  CHECK(propose(6) == x);
  for (int i = 0; i < 2; ++i) {
    bool centre = false;
    for (int j = 0; j <= 20 && !centre; ++j) {
      const double k = x[i] * 2 * std::pow(3.0, j);
      centre = std::abs(k - std::round(k)) < 1e-6 * std::pow(3.0, j) &&
               static_cast<long long>(std::round(k)) % 2 == 1;
    }
    CHECK(centre);
  }
}

TEST_CASE("without sources the ensemble is the target's own GP") {
  const auto ctx = context();
  agents::EnsembleTargetAgent a = target(ctx, Method::rgpe);
  core::RngStream rng(6);
  const core::RngFactory streams(1, 0);
  a.propose(1, protocol::NoBroadcast{}, rng, streams);
  REQUIRE(a.last_weights().size() == 1);
  CHECK(a.last_weights()[0] == 1.0);
}

TEST_CASE("the RGPE / TAF target refuses a sample: it needs the sources' posteriors") {
  const auto ctx = context();
  agents::EnsembleTargetAgent a = target(ctx, Method::taf);
  protocol::PeerMessages peers;
  peers.messages = {nullptr, std::make_shared<const protocol::Message>(
                                 protocol::RffSample{Eigen::VectorXd::Zero(60)})};
  core::RngStream rng(7);
  const core::RngFactory streams(1, 0);
  CHECK_THROWS_WITH(a.propose(1, peers, rng, streams),
                    Catch::Contains("agent 1") && Catch::Contains("sample"));
}

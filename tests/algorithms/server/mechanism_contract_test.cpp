// One body run over every Mechanism (design note "protocols": contract tests): the plain and
// the privatised DE aggregation and the peer forwarding of FTS's target-agent setting.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <string>

#include "algorithms/server/peer_forwarder.hpp"
#include "algorithms/server/privatized_mechanism.hpp"
#include "algorithms/server/region_aggregator.hpp"

using namespace fbosim;

namespace {
constexpr int kAgents = 7, kFeatures = 5, kRegions = 2;

std::shared_ptr<const server::RegionAggregator> region_aggregator() {
  std::vector<int> region;
  for (int n = 0; n < kAgents; ++n) region.push_back(n % kRegions);
  return std::make_shared<const server::RegionAggregator>(
      de::WeightSchedule(de::WeightSchedule::Options{}), region, kRegions, kFeatures);
}

struct Case {
  std::string name;
  std::function<std::unique_ptr<protocol::Mechanism>()> make;
  bool is_private;
  bool summaries;  // forwards any message kind (not only M-vector samples)
};

std::vector<Case> cases() {
  server::DpMechanism::Options dp;
  dp.sampling_rate = 0.5;
  return {
      {"plain DE aggregation",
       [] { return std::make_unique<server::PlainMechanism>(region_aggregator()); }, false, false},
      {"privatised DE aggregation",
       [dp] { return std::make_unique<server::PrivatizedMechanism>(region_aggregator(), dp); },
       true, false},
      {"peer forwarding",
       [] {
         return std::make_unique<server::PlainMechanism>(
             std::make_shared<const server::PeerForwarder>());
       },
       false, true},
  };
}

protocol::Inbox inbox(std::uint64_t seed, double missing) {
  core::RngStream rng(seed);
  protocol::Inbox in(kAgents);
  for (auto& m : in)
    if (!rng.bernoulli(missing))
      m = std::make_shared<const protocol::Message>(
          protocol::RffSample{rng.normal_vector(kFeatures)});
  return in;
}

int present(const protocol::Inbox& in) {
  int n = 0;
  for (const auto& m : in) n += m != nullptr;
  return n;
}

bool same(const protocol::Broadcast& a, const protocol::Broadcast& b) {
  if (a.index() != b.index()) return false;
  if (const auto* r = std::get_if<protocol::RegionSamples>(&a)) {
    const auto& s = std::get<protocol::RegionSamples>(b);
    if (r->omegas.size() != s.omegas.size()) return false;
    for (std::size_t i = 0; i < r->omegas.size(); ++i)
      if (r->omegas[i] != s.omegas[i]) return false;
    return true;
  }
  if (const auto* p = std::get_if<protocol::PeerMessages>(&a))
    return p->messages == std::get<protocol::PeerMessages>(b).messages;
  return true;
}
}  // namespace

TEST_CASE("mechanism contract: stats, events, determinism and missing messages") {
  for (const Case& c : cases()) {
    INFO(c.name);
    const auto mech = c.make();
    const protocol::Inbox in = inbox(3, 0.3);
    core::RngStream r1(11), r2(11);
    const protocol::Release a = mech->release(in, 2, r1), b = mech->release(in, 2, r2);
    // Same stream, same release (no hidden randomness); the event is the declared one.
    CHECK(same(a.broadcast, b.broadcast));
    CHECK(a.event == mech->event(kAgents));
    CHECK(static_cast<bool>(a.event.as<privacy::NoOp>()) == !c.is_private);
    CHECK(a.stats.received == present(in));
    CHECK(a.stats.selected <= a.stats.received);
    CHECK_FALSE(std::holds_alternative<protocol::NoBroadcast>(a.broadcast));
    // Nothing arrived: a private mechanism still releases noise (its event is spent); a plain
    // one sends nothing.
    const protocol::Inbox none(kAgents);
    core::RngStream r3(12);
    const protocol::Release e = mech->release(none, 0, r3);
    CHECK(e.stats.received == 0);
    CHECK(std::holds_alternative<protocol::NoBroadcast>(e.broadcast) == !c.is_private);
    CHECK(e.event == mech->event(kAgents));
    // A posterior summary is forwarded, or refused naming the agent (never mis-aggregated).
    protocol::Inbox summary = in;
    summary[1] = std::make_shared<const protocol::Message>(protocol::GpSummary{
        Eigen::VectorXd::Zero(kFeatures), Eigen::MatrixXd::Identity(kFeatures, kFeatures), {}});
    core::RngStream r4(13);
    if (c.summaries) {
      CHECK(mech->release(summary, 0, r4).stats.floats_per_message == kFeatures * (kFeatures + 1));
    } else if (!c.is_private) {
      CHECK_THROWS_WITH(mech->release(summary, 0, r4), Catch::Contains("agent 1"));
    }
  }
}

TEST_CASE("the plain DE aggregation averages with the weights and renormalises over arrivals") {
  class Fixed final : public protocol::LinearAggregator {
   public:
    Eigen::MatrixXd weights(int, int) const override {
      Eigen::MatrixXd w(2, 3);
      w << 0.5, 0.25, 0.25, 0.2, 0.2, 0.6;
      return w;
    }
    int features() const override { return 2; }
  };
  const server::PlainMechanism mech(std::make_shared<const Fixed>());
  protocol::Inbox in;
  for (const Eigen::Vector2d& v :
       {Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1), Eigen::Vector2d(2, 2)})
    in.push_back(std::make_shared<const protocol::Message>(protocol::RffSample{v}));
  core::RngStream rng(6);
  protocol::Release r = mech.release(in, 0, rng);
  auto omegas = std::get<protocol::RegionSamples>(r.broadcast).omegas;
  CHECK(omegas[0].isApprox(Eigen::Vector2d(1.0, 0.75)));
  CHECK(omegas[1].isApprox(Eigen::Vector2d(1.4, 1.4)));
  in[2] = nullptr;  // region 0: weights 0.5, 0.25 -> 2/3, 1/3
  r = mech.release(in, 0, rng);
  omegas = std::get<protocol::RegionSamples>(r.broadcast).omegas;
  CHECK(omegas[0].isApprox(Eigen::Vector2d(2.0 / 3, 1.0 / 3)));
  CHECK(r.stats.received == 2);
}

TEST_CASE("plain age weights scale the weights' columns before the renormalisation") {
  class Fixed final : public protocol::LinearAggregator {
   public:
    Eigen::MatrixXd weights(int, int) const override {
      Eigen::MatrixXd w(1, 3);
      w << 0.5, 0.25, 0.25;
      return w;
    }
    int features() const override { return 2; }
  };
  const server::PlainMechanism mech(std::make_shared<const Fixed>());
  protocol::Inbox in;
  for (const Eigen::Vector2d& v :
       {Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1), Eigen::Vector2d(2, 2)})
    in.push_back(std::make_shared<const protocol::Message>(protocol::RffSample{v}));
  core::RngStream rng(6);
  // Weights 0.5 x 1, 0.25 x 0.5, 0.25 x 1 = 0.5, 0.125, 0.25, renormalised by 0.875.
  const protocol::Release r = mech.release_scaled(in, 0, rng, {1.0, 0.5, 1.0});
  const auto& omega = std::get<protocol::RegionSamples>(r.broadcast).omegas[0];
  CHECK(omega.isApprox(Eigen::Vector2d((0.5 + 0.5) / 0.875, (0.125 + 0.5) / 0.875)));
  CHECK_THROWS_AS(mech.release_scaled(in, 0, rng, {1.0, 2.0, 1.0}), std::invalid_argument);
  // A server that cannot weight its messages says so.
  const server::PlainMechanism peers(std::make_shared<const server::PeerForwarder>());
  CHECK_THROWS_AS(peers.release_scaled(in, 0, rng, {1.0, 0.5, 1.0}), std::logic_error);
}

TEST_CASE("the privatised mechanism equals DpMechanism on the aggregator's weights") {
  server::DpMechanism::Options o;
  o.sampling_rate = 0.4;
  const auto agg = region_aggregator();
  const server::PrivatizedMechanism mech(agg, o);
  const protocol::Inbox in = inbox(5, 0.2);
  server::Messages vectors(kAgents, nullptr);
  for (int n = 0; n < kAgents; ++n)
    if (in[n]) vectors[n] = &std::get<protocol::RffSample>(*in[n]).omega;
  core::RngStream r1(9), r2(9);
  const protocol::Release a = mech.release(in, 3, r1);
  const server::WeightedRelease b =
      server::DpMechanism(o, kFeatures).release(vectors, agg->weights(3, kAgents), r2);
  const auto& omegas = std::get<protocol::RegionSamples>(a.broadcast).omegas;
  REQUIRE(omegas.size() == b.omegas.size());
  for (std::size_t i = 0; i < omegas.size(); ++i) CHECK(omegas[i] == b.omegas[i]);
  CHECK(a.stats.clipped == b.stats.clipped);
  CHECK(a.event == *b.event);
  // With age weights: DpMechanism::release_scaled on the same weights.
  const std::vector<double> scale = {1, 0.5, 0.25, 1, 1, 0.75, 1};
  core::RngStream r3(9), r4(9);
  const protocol::Release c = mech.release_scaled(in, 3, r3, scale);
  const server::WeightedRelease d =
      server::DpMechanism(o, kFeatures)
          .release_scaled(vectors, agg->weights(3, kAgents), scale, r4, o.clip_norm);
  const auto& aged = std::get<protocol::RegionSamples>(c.broadcast).omegas;
  for (std::size_t i = 0; i < aged.size(); ++i) CHECK(aged[i] == d.omegas[i]);
  CHECK(c.event == a.event);
}

TEST_CASE("peer forwarding counts the floats of FTS sec. 3.2") {
  const server::PeerForwarder forwarder;
  protocol::Inbox in(4);
  in[1] =
      std::make_shared<const protocol::Message>(protocol::RffSample{Eigen::VectorXd::Zero(100)});
  in[2] = std::make_shared<const protocol::Message>(
      protocol::GpSummary{Eigen::VectorXd::Zero(100), Eigen::MatrixXd::Zero(100, 100), 0.9});
  protocol::RoundStats stats;
  const protocol::Broadcast b = forwarder.aggregate(in, 0, stats);
  CHECK(stats.received == 2);
  CHECK(stats.floats == 100 + 10101);  // M, and M + M^2 + 1 (TAF's incumbent)
  CHECK(stats.floats_per_message == 10101);
  CHECK(std::get<protocol::PeerMessages>(b).messages == in);
}

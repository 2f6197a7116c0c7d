// The trust models' releases under an asynchronous schedule (DpMechanism::release_pool,
// local_message; docs/TRUST.md "Under the asynchronous schedules") against independent
// computations: the secure sum over a release's pool recomputed coin by coin and share by share
// from a copy of the stream, and the local messages privatised once by their senders.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/server/privatized_mechanism.hpp"
#include "algorithms/server/region_aggregator.hpp"

using namespace fbosim;
using server::DpMechanism;
using server::Sampler;
using server::Trust;

namespace {

struct PoolCase {
  std::vector<Eigen::VectorXd> msgs;
  Eigen::MatrixXd w;
  server::Messages pointers;  // null outside the pool
  std::vector<bool> pool;
};

// N messages of norms on both sides of the clip bound, P x N row-normalised weights, and a pool.
PoolCase pool_case(int N, int M, int P, const std::vector<bool>& pool) {
  core::RngStream gen(21);
  PoolCase c;
  for (int n = 0; n < N; ++n) c.msgs.push_back(gen.normal_vector(M) * (0.5 + n));
  c.w = gen.uniform_matrix(P, N);
  for (int i = 0; i < P; ++i) c.w.row(i) /= c.w.row(i).sum();
  c.pool = pool;
  for (int n = 0; n < N; ++n) c.pointers.push_back(pool[n] ? &c.msgs[n] : nullptr);
  return c;
}

Eigen::VectorXd clip_hand(const Eigen::VectorXd& v, double bound) {
  return v.norm() > bound ? Eigen::VectorXd(v * (bound / v.norm())) : v;
}

DpMechanism::Options options(Trust trust, Sampler by, double q, double z, double S) {
  DpMechanism::Options o;
  o.sampling_rate = q;
  o.noise_multiplier = z;
  o.clip_norm = S;
  o.trust.trust = trust;
  o.trust.sampled_by = by;
  return o;
}

}  // namespace

TEST_CASE(
    "distributed under an async schedule: the secure sum over the pool is the central sum plus "
    "the summed shares, each share set by the pool's count") {
  const int N = 6, M = 3, P = 2;
  const double q = 0.5, z = 0.8, S = 3.0;
  const std::vector<bool> in_pool = {true, false, true, true, false, true};
  const PoolCase c = pool_case(N, M, P, in_pool);
  const std::vector<double> scale = {1.0, 1.0, 0.5, 0.25, 1.0, 1.0};  // age weights
  for (const Sampler by : {Sampler::agents, Sampler::server}) {
    for (const double rho : {0.0, 0.5}) {
      INFO((by == Sampler::agents ? "agents" : "server") << " rho " << rho);
      DpMechanism::Options o = options(Trust::distributed, by, q, z, S);
      o.trust.dropout_padding = rho;
      const DpMechanism mech(o, M);
      core::RngStream rng(7);
      core::RngStream replay = rng;
      const server::WeightedRelease out = mech.release_pool(c.pointers, c.w, c.pool, &scale, rng);
      // Independently: one Poisson coin per agent (all N, in order), then the pool's agents in
      // the sum (every one with the agents' coins, the selected ones with the server's), each
      // adding w s clip(omega) / q when its coin says yes and a share of std sigma_i / sqrt((1 -
      // rho) m) on every entry, sigma_i = z w_max S / q.
      std::vector<bool> coin;
      for (int n = 0; n < N; ++n) coin.push_back(replay.bernoulli(q));
      std::vector<int> summed;
      for (int n = 0; n < N; ++n)
        if (in_pool[n] && (by == Sampler::agents || coin[n])) summed.push_back(n);
      const auto m = static_cast<double>(summed.size());
      REQUIRE(m > 0);
      const double sigma = z * c.w.maxCoeff() * S / q;
      const double share = sigma / std::sqrt((1 - rho) * m);
      const double bound = S / std::sqrt(double(P));
      std::vector<Eigen::VectorXd> central(P, Eigen::VectorXd::Zero(M)), shares = central;
      for (const int n : summed)
        for (int i = 0; i < P; ++i) {
          if (coin[n]) central[i] += c.w(i, n) * scale[n] * clip_hand(c.msgs[n], bound) / q;
          for (int k = 0; k < M; ++k) shares[i][k] += share * replay.normal();
        }
      REQUIRE(out.omegas.size() == std::size_t(P));
      for (int i = 0; i < P; ++i)
        CHECK((out.omegas[i] - (central[i] + shares[i])).cwiseAbs().maxCoeff() < 1e-12);
      // The summed shares are the central release's Gaussian: m shares of variance sigma^2 /
      // ((1 - rho) m) sum to sigma^2 / (1 - rho).
      CHECK(out.stats.noise_std == Approx(sigma / std::sqrt(1 - rho)).epsilon(1e-12));
      // Its own charges, against the server: the summed agents, at the noise summed.
      REQUIRE(out.charges);
      REQUIRE(out.charges->server.size() == 1);
      CHECK(out.charges->server[0].agents == summed);
      const auto pg = privacy::as_poisson_gaussian(out.charges->server[0].event);
      REQUIRE(pg);
      CHECK(pg->q == (by == Sampler::agents ? q : 1.0));
      CHECK(pg->z == Approx(z / std::sqrt(1 - rho)).epsilon(1e-12));
    }
  }
}

TEST_CASE("distributed under an async schedule: an empty pool is the server's noise, no charge") {
  const int N = 4, M = 2, P = 1;
  const PoolCase c = pool_case(N, M, P, {false, false, false, false});
  const DpMechanism mech(options(Trust::distributed, Sampler::agents, 0.5, 1.0, 2.0), M);
  core::RngStream rng(3);
  const server::WeightedRelease out = mech.release_pool(c.pointers, c.w, c.pool, nullptr, rng);
  REQUIRE(out.charges);
  CHECK(out.charges->server.empty());
  REQUIRE(out.omegas.size() == 1);
  CHECK(out.stats.noise_std > 0);
}

TEST_CASE(
    "local under an async schedule: each message privatised once by its sender, the release "
    "only sums them") {
  const int N = 3, M = 4, P = 2;
  const double S = 2.0, z_local = 0.6;
  DpMechanism::Options o = options(Trust::local, Sampler::server, 1.0, 1.0, S);
  o.trust.local_z = z_local;
  const std::vector<int> regions = {0, 1, 0};
  auto agg = std::make_shared<const server::RegionAggregator>(
      de::WeightSchedule(de::WeightSchedule::Options{}), regions, P, M);
  const server::PrivatizedMechanism mech(agg, o);
  const core::RngFactory rf(9, 0);
  core::RngStream gen(4);
  const Eigen::VectorXd omega = gen.normal_vector(M) * 5.0;  // beyond the clip bound
  auto message = std::make_shared<const protocol::Message>(protocol::RffSample{omega});
  const auto sent = mech.send(message, rf, 1, 2);
  // The same message sent again is the same bits: the noise is the sender's, once.
  const auto again = mech.send(message, rf, 1, 2);
  const Eigen::VectorXd& x = std::get<protocol::RffSample>(*sent).omega;
  CHECK(x == std::get<protocol::RffSample>(*again).omega);
  // Independently: clip to S / sqrt(P), then N(0, (z_local 2 S / sqrt(P))^2) per entry from
  // stream agent.local (1, 2).
  core::RngStream own = rf.stream("agent.local", 1, 2);
  const double bound = S / std::sqrt(double(P));
  Eigen::VectorXd hand = clip_hand(omega, bound);
  for (int k = 0; k < M; ++k) hand[k] += z_local * 2 * bound * own.normal();
  CHECK((x - hand).cwiseAbs().maxCoeff() < 1e-12);
  // Another evaluation: other noise.
  CHECK(std::get<protocol::RffSample>(*mech.send(message, rf, 1, 3)).omega != x);
  // The release weights and sums the pool's privatised messages (q = 1: all), adding nothing.
  protocol::Inbox inbox(N);
  inbox[0] = mech.send(message, rf, 0, 0);
  inbox[1] = sent;
  const std::vector<bool> pool = {true, true, false};
  core::RngStream rng(5);
  const protocol::Release r = mech.release_pool(inbox, 0, rng, pool, nullptr);
  const Eigen::MatrixXd w = agg->weights(0, N);
  const auto& out = std::get<protocol::RegionSamples>(r.broadcast).omegas;
  for (int i = 0; i < P; ++i) {
    const Eigen::VectorXd expected = w(i, 0) * std::get<protocol::RffSample>(*inbox[0]).omega +
                                     w(i, 1) * std::get<protocol::RffSample>(*inbox[1]).omega;
    CHECK((out[i] - expected).cwiseAbs().maxCoeff() < 1e-12);
  }
  REQUIRE(r.charges);
  CHECK(r.charges->server.empty());  // charged per message sent (run::release_charge)
  CHECK(r.event == privacy::DpEvent::gaussian(z_local));
  // Under another trust model the message leaves as it is.
  const server::PrivatizedMechanism central(agg, options(Trust::central, Sampler::server, 1, 1, S));
  CHECK(central.send(message, rf, 1, 2) == message);
  CHECK_THROWS_AS(DpMechanism(options(Trust::central, Sampler::server, 1, 1, S), M)
                      .local_message(omega, P, own),
                  std::logic_error);
}

TEST_CASE("local with the coin under an async schedule: the coin first, zeros when it says no") {
  const int M = 3, P = 1;
  DpMechanism::Options o = options(Trust::local, Sampler::server, 0.5, 1.0, 1.0);
  o.trust.local_coin = true;
  o.trust.local_z = 1.0;
  const DpMechanism mech(o, M);
  const Eigen::VectorXd omega = Eigen::VectorXd::Constant(M, 0.1);
  int with_vector = 0;
  for (std::uint64_t s = 0; s < 40; ++s) {
    core::RngStream rng(s);
    core::RngStream replay = rng;
    const Eigen::VectorXd x = mech.local_message(omega, P, rng);
    const bool coin = replay.bernoulli(0.5);
    Eigen::VectorXd hand = coin ? omega : Eigen::VectorXd::Zero(M);
    for (int k = 0; k < M; ++k) hand[k] += 2.0 * replay.normal();
    CHECK((x - hand).cwiseAbs().maxCoeff() < 1e-12);
    with_vector += coin;
  }
  CHECK(with_vector > 0);
  CHECK(with_vector < 40);
}

#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/server/plain_aggregator.hpp"

using namespace fbosim;
using server::DpMechanism;

namespace {
server::Messages pointers(const std::vector<Eigen::VectorXd>& v) {
  server::Messages m;
  for (const auto& x : v) m.push_back(&x);
  return m;
}
Eigen::MatrixXd uniform_weights(int P, int N) { return Eigen::MatrixXd::Constant(P, N, 1.0 / N); }
}  // namespace

TEST_CASE("clipping bounds the norm by S/sqrt(P) and leaves short vectors alone") {
  const double bound = DpMechanism::clip_bound(11.0, 2);
  CHECK(bound == Approx(11.0 / std::sqrt(2.0)));
  core::RngStream rng(1);
  for (int k = 0; k < 100; ++k) {
    Eigen::VectorXd v = rng.normal_vector(50) * rng.uniform(0.1, 3.0);
    const Eigen::VectorXd before = v;
    const bool clipped = DpMechanism::clip(v, bound);
    CHECK(v.norm() <= bound * (1 + 1e-12));
    CHECK(clipped == (before.norm() > bound));
    if (!clipped) CHECK(v == before);
    if (clipped) CHECK((v / v.norm() - before / before.norm()).norm() < 1e-12);  // same direction
  }
}

TEST_CASE("with q = 1 the broadcast is (1/q) sum w clip(omega) plus noise of std z w_max S / q") {
  const int N = 6, M = 4, P = 2;
  core::RngStream gen(2);
  std::vector<Eigen::VectorXd> msgs;
  for (int n = 0; n < N; ++n) msgs.push_back(gen.normal_vector(M) * 3);
  Eigen::MatrixXd w = gen.uniform_matrix(P, N);
  for (int i = 0; i < P; ++i) w.row(i) /= w.row(i).sum();
  DpMechanism::Options o;
  o.sampling_rate = 1.0;
  o.noise_multiplier = 0.5;
  o.clip_norm = 4.0;
  const DpMechanism mech(o, M);
  // Independent expected mean: clip by hand.
  std::vector<Eigen::VectorXd> expected(P, Eigen::VectorXd::Zero(M));
  int clipped = 0;
  for (int n = 0; n < N; ++n) {
    Eigen::VectorXd c = msgs[n];
    const double b = 4.0 / std::sqrt(2.0);
    if (c.norm() > b) {
      c *= b / c.norm();
      ++clipped;
    }
    for (int i = 0; i < P; ++i) expected[i] += w(i, n) * c;
  }
  const double std = 0.5 * w.maxCoeff() * 4.0 / 1.0;
  const int draws = 20000;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(M), sum2 = Eigen::VectorXd::Zero(M);
  core::RngStream rng(3);
  for (int d = 0; d < draws; ++d) {
    const server::Release r = mech.release(pointers(msgs), w, rng);
    REQUIRE(r.stats.selected == N);
    REQUIRE(r.stats.clipped == clipped);
    REQUIRE(r.stats.noise_std == Approx(std));
    REQUIRE(r.event);
    REQUIRE(r.event->sampling_rate == 1.0);
    const Eigen::VectorXd e = r.broadcast.omegas[0] - expected[0];
    sum += e;
    sum2 += e.cwiseProduct(e);
  }
  for (int k = 0; k < M; ++k) {
    CHECK(sum[k] / draws == Approx(0.0).margin(4 * std / std::sqrt(draws)));
    CHECK(std::sqrt(sum2[k] / draws) == Approx(std).epsilon(0.03));
  }
}

TEST_CASE("Poisson subsampling selects each agent with probability q; fixed selects floor(Nq)") {
  const int N = 40, M = 3;
  std::vector<Eigen::VectorXd> msgs(N, Eigen::VectorXd::Ones(M));
  DpMechanism::Options o;
  o.sampling_rate = 0.3;
  core::RngStream rng(4);
  const DpMechanism poisson(o, M);
  double total = 0;
  const int rounds = 2000;
  for (int r = 0; r < rounds; ++r)
    total += poisson.release(pointers(msgs), uniform_weights(1, N), rng).stats.selected;
  CHECK(total / rounds == Approx(N * 0.3).margin(0.3));
  o.sampling = privacy::Sampling::fixed;
  const DpMechanism fixed(o, M);
  for (int r = 0; r < 50; ++r)
    CHECK(fixed.release(pointers(msgs), uniform_weights(1, N), rng).stats.selected == 12);
}

TEST_CASE("missing messages are not selected and noise is still added") {
  const int N = 5, M = 3;
  std::vector<Eigen::VectorXd> msgs(N, Eigen::VectorXd::Ones(M));
  server::Messages m(N, nullptr);
  DpMechanism::Options o;
  o.sampling_rate = 1.0;
  const DpMechanism mech(o, M);
  core::RngStream rng(5);
  const server::Release r = mech.release(m, uniform_weights(2, N), rng);
  CHECK(r.stats.received == 0);
  CHECK(r.stats.selected == 0);
  CHECK(r.broadcast.omegas.size() == 2);
  CHECK(r.broadcast.omegas[0].norm() > 0);
}

TEST_CASE("invalid mechanism parameters are rejected with the value named") {
  DpMechanism::Options o;
  o.sampling_rate = 1.5;
  CHECK_THROWS_WITH(DpMechanism(o, 3), Catch::Contains("1.5") && Catch::Contains("sampling_rate"));
  o.sampling_rate = 0.5;
  o.noise_multiplier = 0;
  CHECK_THROWS_WITH(DpMechanism(o, 3), Catch::Contains("noise_multiplier"));
}

TEST_CASE("the plain aggregator averages with the DE weights and renormalises over arrivals") {
  const int N = 3, M = 2;
  std::vector<Eigen::VectorXd> msgs = {Eigen::Vector2d(1, 0), Eigen::Vector2d(0, 1),
                                       Eigen::Vector2d(2, 2)};
  Eigen::MatrixXd w(2, N);
  w << 0.5, 0.25, 0.25, 0.2, 0.2, 0.6;
  core::RngStream rng(6);
  const server::PlainAggregator agg(M);
  server::Release r = agg.release(pointers(msgs), w, rng);
  CHECK(r.broadcast.omegas[0].isApprox(Eigen::Vector2d(1.0, 0.75)));
  CHECK(r.broadcast.omegas[1].isApprox(Eigen::Vector2d(1.4, 1.4)));
  CHECK_FALSE(r.event);
  server::Messages partial = pointers(msgs);
  partial[2] = nullptr;  // region 0: weights 0.5, 0.25 -> 2/3, 1/3
  r = agg.release(partial, w, rng);
  CHECK(r.broadcast.omegas[0].isApprox(Eigen::Vector2d(2.0 / 3, 1.0 / 3)));
  CHECK(r.stats.received == 2);
}

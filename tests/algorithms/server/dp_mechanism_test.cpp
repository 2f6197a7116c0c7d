#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/server/gaussian_noise.hpp"

using namespace fbosim;
using server::DpMechanism;

namespace {
server::Messages pointers(const std::vector<Eigen::VectorXd>& v) {
  server::Messages m;
  for (const auto& x : v) m.push_back(&x);
  return m;
}
Eigen::MatrixXd uniform_weights(int P, int N) { return Eigen::MatrixXd::Constant(P, N, 1.0 / N); }

// Clip to S / sqrt(P) by hand (Algo. 1 line 9).
Eigen::VectorXd clip_by_hand(const Eigen::VectorXd& v, double S, int P) {
  const double b = S / std::sqrt(static_cast<double>(P));
  return v.norm() > b ? Eigen::VectorXd(v * (b / v.norm())) : v;
}

// Messages of varied norms around the clip bound and row-normalised weights whose rows have
// different maxima (so that global and per-region w_max differ).
struct Round {
  std::vector<Eigen::VectorXd> msgs;
  Eigen::MatrixXd w;
};
// Message n has norm (0.4 + 1.6 n / (N - 1)) S / sqrt(P): the first ones are left alone, the
// others clipped.
Round make_round(int N, int M, int P, double S, std::uint64_t seed) {
  core::RngStream gen(seed);
  Round r;
  for (int n = 0; n < N; ++n) {
    const Eigen::VectorXd v = gen.normal_vector(M);
    r.msgs.push_back(v / v.norm() * (0.4 + 1.6 * n / (N - 1)) * S / std::sqrt(double(P)));
  }
  r.w = gen.uniform_matrix(P, N);
  for (int i = 0; i < P; ++i) {
    r.w(i, i % N) += 1.0 + i;  // a dominant agent per region, larger in later regions
    r.w.row(i) /= r.w.row(i).sum();
  }
  return r;
}

// Monte Carlo mean and standard deviation of every coordinate of every sub-region's broadcast.
struct Moments {
  std::vector<Eigen::VectorXd> mean, sd;
};
Moments moments(const DpMechanism& mech, const server::Messages& m, const Eigen::MatrixXd& w,
                int draws, std::uint64_t seed) {
  const auto P = static_cast<std::size_t>(w.rows());
  std::vector<Eigen::VectorXd> s1, s2;
  core::RngStream rng(seed);
  for (int d = 0; d < draws; ++d) {
    const server::WeightedRelease r = mech.release(m, w, rng);
    REQUIRE(r.event);
    if (s1.empty()) {
      for (const auto& o : r.omegas) {
        s1.push_back(Eigen::VectorXd::Zero(o.size()));
        s2.push_back(Eigen::VectorXd::Zero(o.size()));
      }
    }
    for (std::size_t i = 0; i < P; ++i) {
      s1[i] += r.omegas[i];
      s2[i] += r.omegas[i].cwiseProduct(r.omegas[i]);
    }
  }
  Moments out;
  for (std::size_t i = 0; i < P; ++i) {
    const Eigen::VectorXd mean = s1[i] / draws;
    out.mean.push_back(mean);
    out.sd.push_back(
        ((s2[i] / draws - mean.cwiseProduct(mean)) * draws / (draws - 1.0)).cwiseSqrt());
  }
  return out;
}

// Checks the Monte Carlo moments against the expected mean and standard deviation: the mean to
// 5 standard errors, the standard deviation to 4 % (its relative standard error is ~0.5 % at
// 40000 draws, a little more with the heavier tails of the subsampling mixture).
void check_moments(const Moments& got, const std::vector<Eigen::VectorXd>& mean,
                   const std::vector<Eigen::VectorXd>& sd, int draws) {
  REQUIRE(got.mean.size() == mean.size());
  for (std::size_t i = 0; i < mean.size(); ++i)
    for (Eigen::Index k = 0; k < mean[i].size(); ++k) {
      INFO("sub-region " << i << ", coordinate " << k);
      CHECK(got.mean[i][k] == Approx(mean[i][k]).margin(5 * sd[i][k] / std::sqrt(draws)));
      CHECK(got.sd[i][k] == Approx(sd[i][k]).epsilon(0.04));
    }
}
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
    const server::WeightedRelease r = mech.release(pointers(msgs), w, rng);
    REQUIRE(r.stats.selected == N);
    REQUIRE(r.stats.clipped == clipped);
    REQUIRE(r.stats.noise_std == Approx(std));
    REQUIRE(r.event);
    REQUIRE(privacy::as_poisson_gaussian(*r.event)->q == 1.0);
    const Eigen::VectorXd e = r.omegas[0] - expected[0];
    sum += e;
    sum2 += e.cwiseProduct(e);
  }
  for (int k = 0; k < M; ++k) {
    CHECK(sum[k] / draws == Approx(0.0).margin(4 * std / std::sqrt(draws)));
    CHECK(std::sqrt(sum2[k] / draws) == Approx(std).epsilon(0.03));
  }
}

TEST_CASE("age weights scale the sums, never renormalised, and keep the noise z w_max S / g") {
  // The same draws with and without the weights (one stream seed): the selection and the noise
  // are the same, the broadcasts differ by sum_n W(i, n) (s_n - 1) clip(omega_n) / q, computed
  // by hand; the noise std and the event are the unscaled W's, which bound every weighted
  // contribution W(i, n) s_n S / sqrt(P) / q <= w_max S / sqrt(P) / q.
  const int N = 5, M = 3, P = 2;
  const Round r = make_round(N, M, P, 2.0, 21);
  DpMechanism::Options o;
  o.sampling_rate = 0.6;
  o.noise_multiplier = 0.7;
  o.clip_norm = 2.0;
  const DpMechanism mech(o, M);
  const std::vector<double> scale = {1.0, 0.5, 0.25, 1.0, 0.125};
  for (const std::uint64_t seed : {7u, 8u, 9u}) {
    core::RngStream a(seed), b(seed);
    const server::WeightedRelease plain = mech.release(pointers(r.msgs), r.w, a);
    const server::WeightedRelease aged = mech.release_scaled(pointers(r.msgs), r.w, scale, b, 2.0);
    CHECK(aged.stats.selected == plain.stats.selected);
    CHECK(aged.stats.noise_std == plain.stats.noise_std);
    CHECK(aged.stats.noise_std == Approx(0.7 * r.w.maxCoeff() * 2.0 / 0.6));
    REQUIRE(aged.event);
    CHECK(*aged.event == *plain.event);
    // Which agents the draws selected: redo the selection from the same seed.
    core::RngStream c(seed);
    const std::vector<bool> chosen = mech.select(N, c);
    for (int i = 0; i < P; ++i) {
      Eigen::VectorXd diff = Eigen::VectorXd::Zero(M);
      for (int n = 0; n < N; ++n)
        if (chosen[static_cast<std::size_t>(n)])
          diff += r.w(i, n) * (scale[static_cast<std::size_t>(n)] - 1.0) *
                  clip_by_hand(r.msgs[static_cast<std::size_t>(n)], 2.0, P) / 0.6;
      CHECK((aged.omegas[static_cast<std::size_t>(i)] - plain.omegas[static_cast<std::size_t>(i)] -
             diff)
                .norm() < 1e-12);
    }
  }
  // One message present, weight 0.5, q = 1: half its weighted value, not renormalised up.
  o.sampling_rate = 1.0;
  const DpMechanism all(o, M);
  server::Messages one(N, nullptr);
  one[1] = &r.msgs[1];
  core::RngStream a(3), b(3);
  const auto plain = all.release(one, r.w, a);
  const auto aged = all.release_scaled(one, r.w, {1, 0.5, 1, 1, 1}, b, 2.0);
  for (int i = 0; i < P; ++i)
    CHECK((aged.omegas[static_cast<std::size_t>(i)] - plain.omegas[static_cast<std::size_t>(i)] +
           0.5 * r.w(i, 1) * clip_by_hand(r.msgs[1], 2.0, P))
              .norm() < 1e-12);
  // A weight outside (0, 1] or of another length is refused.
  core::RngStream d(1);
  CHECK_THROWS_AS(all.release_scaled(one, r.w, {1, 1.5, 1, 1, 1}, d, 2.0), std::invalid_argument);
  CHECK_THROWS_AS(all.release_scaled(one, r.w, {1, 0, 1, 1, 1}, d, 2.0), std::invalid_argument);
  CHECK_THROWS_AS(all.release_scaled(one, r.w, {1, 1}, d, 2.0), std::invalid_argument);
}

TEST_CASE("Poisson q < 1: every sub-region's mean and std match Algo. 1 lines 9-11") {
  // Independent computation: with I_n ~ Bernoulli(q) iid and c_n the clipped messages,
  //   omega^(i) = (1/q) sum_n I_n w_n^(i) c_n + N(0, sigma^2),  sigma = z w_max S / q,
  //   E omega^(i)_k = sum_n w_n^(i) c_nk,
  //   Var omega^(i)_k = ((1 - q) / q) sum_n (w_n^(i) c_nk)^2 + sigma^2.
  // A missing 1/q, a 1/(qN) or 1/q^2 shifts the mean by a factor >= 1/q = 3.3.
  const int N = 6, M = 3, P = 3, draws = 40000;
  const double q = 0.3, z = 0.7, S = 3.0;
  for (const bool per_region : {false, true}) {
    INFO("per_region_w_max = " << per_region);
    const Round rd = make_round(N, M, P, S, 11);
    DpMechanism::Options o;
    o.sampling_rate = q;
    o.noise_multiplier = z;
    o.clip_norm = S;
    o.per_region_w_max = per_region;
    const DpMechanism mech(o, M);
    std::vector<Eigen::VectorXd> mean(P, Eigen::VectorXd::Zero(M)), var(P);
    int clipped_msgs = 0;
    for (int n = 0; n < N; ++n) clipped_msgs += rd.msgs[n].norm() > S / std::sqrt(3.0);
    REQUIRE(clipped_msgs >= 2);  // the bound S / sqrt(P) matters here
    REQUIRE(clipped_msgs <= N - 2);
    for (int i = 0; i < P; ++i) {
      const double w_max = per_region ? rd.w.row(i).maxCoeff() : rd.w.maxCoeff();
      const double sigma = z * w_max * S / q;
      var[i] = Eigen::VectorXd::Constant(M, sigma * sigma);
      for (int n = 0; n < N; ++n) {
        const Eigen::VectorXd x = rd.w(i, n) * clip_by_hand(rd.msgs[n], S, P);
        mean[i] += x;
        var[i] += (1 - q) / q * x.cwiseProduct(x);
      }
      var[i] = var[i].cwiseSqrt();
    }
    check_moments(moments(mech, pointers(rd.msgs), rd.w, draws, 12), mean, var, draws);
  }
}

TEST_CASE("noise alone: std z w_max S / q in every sub-region, w_max global or per region") {
  // With no message present the broadcast is the noise: sigma_i = z w_max S / q with w_max the
  // largest weight overall, or of row i with server.w_max: per_region.
  const int N = 5, M = 4, P = 3, draws = 40000;
  const double q = 0.25, z = 1.3, S = 2.0;
  const Round rd = make_round(N, M, P, S, 13);
  REQUIRE(rd.w.row(0).maxCoeff() < rd.w.row(2).maxCoeff());
  for (const bool per_region : {false, true}) {
    INFO("per_region_w_max = " << per_region);
    DpMechanism::Options o;
    o.sampling_rate = q;
    o.noise_multiplier = z;
    o.clip_norm = S;
    o.per_region_w_max = per_region;
    const DpMechanism mech(o, M);
    std::vector<Eigen::VectorXd> mean(P, Eigen::VectorXd::Zero(M)), sd;
    double largest = 0;
    for (int i = 0; i < P; ++i) {
      const double sigma = z * (per_region ? rd.w.row(i).maxCoeff() : rd.w.maxCoeff()) * S / q;
      sd.push_back(Eigen::VectorXd::Constant(M, sigma));
      largest = std::max(largest, sigma);
    }
    const server::Messages none(N, nullptr);
    check_moments(moments(mech, none, rd.w, draws, 14), mean, sd, draws);
    core::RngStream rng(15);
    CHECK(mech.release(none, rd.w, rng).stats.noise_std == Approx(largest).epsilon(1e-12));
  }
}

TEST_CASE("fixed-size sampling: unbiased with g = floor(N q) / N, noise z w_max S / g") {
  // Exactly B = floor(N q) of N agents without replacement: P(I_n) = g = B / N and
  // P(I_n I_m) = g (B - 1) / (N - 1) for n != m, so with x_n = w_n^(i) c_nk
  //   Var sum_n I_n x_n = g (1 - g) sum x_n^2 + (g (B - 1) / (N - 1) - g^2) sum_{n != m} x_n x_m.
  // N = 10, q = 0.25: B = 2, g = 0.2; dividing by q instead would scale the mean by 0.8.
  const int N = 10, M = 2, P = 2, draws = 40000;
  const double q = 0.25, z = 0.9, S = 4.0, g = 0.2;
  const Round rd = make_round(N, M, P, S, 16);
  DpMechanism::Options o;
  o.sampling_rate = q;
  o.noise_multiplier = z;
  o.clip_norm = S;
  o.sampling = privacy::Sampling::fixed;
  const DpMechanism mech(o, M);
  CHECK(mech.sampling_fraction(N) == Approx(g).epsilon(1e-15));
  const double pair = g * (2 - 1) / (N - 1);
  std::vector<Eigen::VectorXd> mean(P, Eigen::VectorXd::Zero(M)), sd(P);
  for (int i = 0; i < P; ++i) {
    const double sigma = z * rd.w.maxCoeff() * S / g;
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(M), sum_sq = Eigen::VectorXd::Zero(M);
    for (int n = 0; n < N; ++n) {
      const Eigen::VectorXd x = rd.w(i, n) * clip_by_hand(rd.msgs[n], S, P);
      mean[i] += x;
      sum += x;
      sum_sq += x.cwiseProduct(x);
    }
    const Eigen::VectorXd cross = sum.cwiseProduct(sum) - sum_sq;  // sum over n != m
    const Eigen::VectorXd var_sum = g * (1 - g) * sum_sq + (pair - g * g) * cross;
    sd[i] = (var_sum / (g * g) + Eigen::VectorXd::Constant(M, sigma * sigma)).cwiseSqrt();
  }
  check_moments(moments(mech, pointers(rd.msgs), rd.w, draws, 17), mean, sd, draws);
  core::RngStream rng(18);
  const server::WeightedRelease r = mech.release(pointers(rd.msgs), rd.w, rng);
  CHECK(r.stats.selected == 2);
  CHECK(r.stats.noise_std == Approx(z * rd.w.maxCoeff() * S / g).epsilon(1e-12));
  REQUIRE(r.event);
  CHECK(*r.event == privacy::DpEvent::fixed_sampled(2, N, privacy::DpEvent::gaussian(z)));
  // floor(N q) = 0 cannot be released.
  o.sampling_rate = 0.05;
  CHECK_THROWS_WITH(DpMechanism(o, M).release(pointers(rd.msgs), rd.w, rng),
                    Catch::Contains("floor(N q) = 0"));
}

TEST_CASE("a Gaussian event is attached only after noise of finite positive std was drawn") {
  const auto fresh = [] {
    server::WeightedRelease r;
    r.omegas = {Eigen::VectorXd::Zero(3), Eigen::VectorXd::Zero(3)};
    return r;
  };
  const privacy::DpEvent event =
      privacy::sampled_gaussian(privacy::Sampling::poisson, 0.25, 1.0, 10);
  core::RngStream rng(19);
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity()}) {
    INFO("std " << bad);
    server::WeightedRelease r = fresh();
    CHECK_THROWS_AS(server::add_gaussian_noise(r, {1.0, bad}, event, rng), std::logic_error);
    CHECK_FALSE(r.event);
  }
  server::WeightedRelease r = fresh();
  CHECK_THROWS_AS(server::add_gaussian_noise(r, {1.0}, event, rng), std::logic_error);
  CHECK_FALSE(r.event);
  // An event of zero noise cannot even be built.
  CHECK_THROWS_AS(privacy::DpEvent::gaussian(0), std::invalid_argument);
  r = fresh();
  r.omegas[1][0] = std::numeric_limits<double>::infinity();  // not finite after noise
  CHECK_THROWS_AS(server::add_gaussian_noise(r, {1.0, 1.0}, event, rng), std::logic_error);
  CHECK_FALSE(r.event);
  r = fresh();
  server::add_gaussian_noise(r, {0.5, 2.0}, event, rng);
  REQUIRE(r.event);
  CHECK(r.stats.noise_std == 2.0);
  CHECK(r.omegas[0].cwiseAbs().minCoeff() > 0);  // every coordinate was noised
  CHECK(r.omegas[1].cwiseAbs().minCoeff() > 0);
}

TEST_CASE("weights that would give zero or NaN noise are refused, not released") {
  const int N = 4, M = 3;
  std::vector<Eigen::VectorXd> msgs(N, Eigen::VectorXd::Ones(M));
  DpMechanism::Options o;
  o.sampling_rate = 0.5;
  const DpMechanism mech(o, M);
  core::RngStream rng(20);
  Eigen::MatrixXd w = uniform_weights(2, N);
  w.row(1).setZero();  // the softmax of an overflowed exp: 0 / inf
  CHECK_THROWS_WITH(mech.release(pointers(msgs), w, rng),
                    Catch::Contains("sub-region 1") && Catch::Contains("0"));
  o.per_region_w_max = true;
  CHECK_THROWS_AS(DpMechanism(o, M).release(pointers(msgs), w, rng), std::invalid_argument);
  w = uniform_weights(2, N);
  w(0, 2) = std::numeric_limits<double>::quiet_NaN();  // inf / inf
  CHECK_THROWS_AS(mech.release(pointers(msgs), w, rng), std::invalid_argument);
  w(0, 2) = -0.1;
  CHECK_THROWS_AS(mech.release(pointers(msgs), w, rng), std::invalid_argument);
  CHECK_THROWS_AS(mech.release(pointers(msgs), uniform_weights(2, N + 1), rng),
                  std::invalid_argument);
}

TEST_CASE("DE weights with a_t = 710 and beyond give finite positive noise (issue #10)") {
  // exp(a_t - 1) overflowed the row sums, every weight became 0 and the noise std 0.
  const int N = 8, M = 3, P = 2;
  std::vector<int> region(N);
  for (int n = 0; n < N; ++n) region[n] = n % P;
  std::vector<Eigen::VectorXd> msgs(N, Eigen::VectorXd::Ones(M));
  DpMechanism::Options o;
  o.sampling_rate = 0.5;
  o.clip_norm = 2.0;
  const DpMechanism mech(o, M);
  core::RngStream rng(21);
  for (const double start : {710.0, 711.0, 1e4, 1e300}) {
    INFO("start " << start);
    de::WeightSchedule::Options wo;
    wo.start = start;
    const de::WeightSchedule schedule(wo);
    for (const int t : {0, 7, 8, 10, 11}) {
      const server::WeightedRelease r =
          mech.release(pointers(msgs), schedule.weights(t, region, P), rng);
      REQUIRE(r.event);
      // w_max is 1/4 (4 agents per region) until a_t = 1 makes it 1/8.
      CHECK(r.stats.noise_std == Approx(1.0 * (t < 10 ? 0.25 : 0.125) * 2.0 / 0.5));
      for (const auto& omega : r.omegas) CHECK(omega.allFinite());
    }
  }
}

TEST_CASE("non-finite messages contribute nothing, huge finite ones are clipped") {
  const double bound = 2.0;
  Eigen::VectorXd v = Eigen::VectorXd::Constant(4, 1e200);  // |v|^2 overflows
  CHECK(DpMechanism::clip(v, bound));
  CHECK(v.norm() == Approx(bound));
  CHECK((v.array() == v[0]).all());
  v << 1, std::numeric_limits<double>::quiet_NaN(), 0, 0;
  CHECK(DpMechanism::clip(v, bound));
  CHECK(v.isZero(0));
  v << 1, -std::numeric_limits<double>::infinity(), 0, 0;
  CHECK(DpMechanism::clip(v, bound));
  CHECK(v.isZero(0));
  // A NaN message would otherwise make the release NaN exactly when its sender is selected.
  std::vector<Eigen::VectorXd> msgs(3, Eigen::VectorXd::Ones(4));
  msgs[1][2] = std::numeric_limits<double>::quiet_NaN();
  DpMechanism::Options o;
  o.sampling_rate = 1.0;
  core::RngStream rng(22);
  const server::WeightedRelease r =
      DpMechanism(o, 4).release(pointers(msgs), uniform_weights(2, 3), rng);
  CHECK(r.stats.clipped == 1);
  for (const auto& omega : r.omegas) CHECK(omega.allFinite());
}

TEST_CASE("Poisson subsampling selects each agent with probability q, fixed selects floor(Nq)") {
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
  const server::WeightedRelease r = mech.release(m, uniform_weights(2, N), rng);
  CHECK(r.stats.received == 0);
  CHECK(r.stats.selected == 0);
  CHECK(r.omegas.size() == 2);
  CHECK(r.omegas[0].norm() > 0);
}

TEST_CASE("invalid mechanism parameters are rejected with the value named") {
  DpMechanism::Options o;
  o.sampling_rate = 1.5;
  CHECK_THROWS_WITH(DpMechanism(o, 3), Catch::Contains("1.5") && Catch::Contains("sampling_rate"));
  o.sampling_rate = 0.5;
  o.noise_multiplier = 0;
  CHECK_THROWS_WITH(DpMechanism(o, 3), Catch::Contains("noise_multiplier"));
  o.noise_multiplier = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(DpMechanism(o, 3),
                    Catch::Contains("noise_multiplier") && Catch::Contains("inf"));
  o.noise_multiplier = 1;
  o.clip_norm = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(DpMechanism(o, 3), Catch::Contains("clip_norm") && Catch::Contains("nan"));
}

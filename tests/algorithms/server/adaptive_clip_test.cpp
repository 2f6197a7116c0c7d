// Adaptive clipping (Andrew et al., NeurIPS 2021, Algorithm 1): the geometric update against a
// hand computation, convergence to the target quantile of fixed message norms, and the ledger's
// epsilon against the closed form of composed Gaussian mechanisms.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "../privacy/analytic_gaussian.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"
#include "algorithms/server/adaptive_clip.hpp"
#include "algorithms/server/privatized_mechanism.hpp"

using namespace fbosim;

namespace {

// One sub-region, every agent weighted 1/N, messages of `features` floats.
class MeanAggregator final : public protocol::LinearAggregator {
 public:
  explicit MeanAggregator(int features) : features_(features) {}
  Eigen::MatrixXd weights(int /*round*/, int population) const override {
    return Eigen::MatrixXd::Constant(1, population, 1.0 / population);
  }
  int features() const override { return features_; }

 private:
  int features_;
};

server::DpMechanism::Options adaptive_options() {
  server::DpMechanism::Options o;
  o.clipping = server::Clipping::adaptive;
  o.sampling_rate = 1.0;
  o.noise_multiplier = 1.0;
  o.clip_norm = 100.0;
  o.clip_quantile = 0.5;
  o.clip_learning_rate = 0.05;
  o.clip_count_noise = 1e-9;  // (nearly) noiseless count: a deterministic walk
  return o;
}

}  // namespace

TEST_CASE("adaptive clipping: the geometric update against a hand computation") {
  // C exp(-eta (b_bar - gamma)): 10 exp(-0.2 (0.8 - 0.5)) = 10 exp(-0.06).
  CHECK(server::AdaptiveClip::next_clip_norm(10, 0.8, 0.5, 0.2) ==
        Approx(9.417645335842487).epsilon(1e-15));
  // Nothing unclipped: 10 exp(0.2 * 0.5) (the bound grows).
  CHECK(server::AdaptiveClip::next_clip_norm(10, 0.0, 0.5, 0.2) ==
        Approx(11.051709180756477).epsilon(1e-15));
  // b_bar = gamma: unchanged.
  CHECK(server::AdaptiveClip::next_clip_norm(7, 0.3, 0.3, 1.0) == 7);

  // update(): b_bar = (count + sigma_b N(0,1)) / expected, with the draw from the given stream.
  server::AdaptiveClip clip(10, 0.5, 0.2, 2.0);
  core::RngStream rng(42), copy(42);
  const double noise = copy.normal();
  const double b_bar = clip.update(7, 12.5, rng);
  CHECK(b_bar == Approx((7 + 2.0 * noise) / 12.5).epsilon(1e-14));
  CHECK(clip.clip_norm() == Approx(10 * std::exp(-0.2 * (b_bar - 0.5))).epsilon(1e-14));
}

TEST_CASE("adaptive clipping: bad options are refused naming the key") {
  using server::AdaptiveClip;
  CHECK_THROWS_WITH(AdaptiveClip(1, 0, 0.2, 1), Catch::Contains("server.clip_quantile"));
  CHECK_THROWS_WITH(AdaptiveClip(1, 1, 0.2, 1), Catch::Contains("server.clip_quantile"));
  CHECK_THROWS_WITH(AdaptiveClip(1, 0.5, 0, 1), Catch::Contains("server.clip_learning_rate"));
  CHECK_THROWS_WITH(AdaptiveClip(1, 0.5, 0.2, 0), Catch::Contains("server.clip_count_noise"));
  CHECK_THROWS_WITH(AdaptiveClip(1, 0.5, 0.2, NAN), Catch::Contains("server.clip_count_noise"));
  server::DpMechanism::Options o = adaptive_options();
  o.clip_quantile = 1.5;
  CHECK_THROWS_WITH(server::DpMechanism(o, 1), Catch::Contains("server.clip_quantile"));
}

TEST_CASE("adaptive clipping: without count noise the bound converges to the gamma-quantile") {
  // 20 agents with fixed message norms 1, 2, ..., 20; q = 1, P = 1 (the bound is C itself).
  // Every C in [10, 11) leaves exactly half unclipped, so b_bar = gamma there and C stays: the
  // walk must end inside the 0.5-quantile interval, from above (C_0 = 100) and below (C_0 = 1).
  constexpr int kAgents = 20;
  protocol::Inbox inbox(kAgents);
  for (int n = 0; n < kAgents; ++n)
    inbox[static_cast<std::size_t>(n)] = std::make_shared<const protocol::Message>(
        protocol::RffSample{Eigen::VectorXd::Constant(1, n + 1.0)});
  for (double start : {100.0, 1.0}) {
    server::DpMechanism::Options o = adaptive_options();
    o.clip_norm = start;
    server::PrivatizedMechanism mech(std::make_shared<const MeanAggregator>(1), o);
    core::RngStream rng(7);
    double c = start;  // C_t by hand
    for (int t = 0; t < 1000; ++t) {
      const protocol::Release r = mech.release(inbox, t, rng);
      // The round's C_t, as server.csv reports it (the count noise 1e-9 moves it by ~1e-12).
      REQUIRE(r.stats.clip_norm == Approx(c).epsilon(1e-9));
      const double used = r.stats.clip_norm;
      // The noise follows C_t: z w_max C_t / g = 1 * (1/20) * C_t.
      REQUIRE(r.stats.noise_std == Approx(used / kAgents).epsilon(1e-12));
      const int unclipped = static_cast<int>(std::floor(std::min(used, 20.0)));
      REQUIRE(r.stats.clipped == kAgents - unclipped);
      c = server::AdaptiveClip::next_clip_norm(used, unclipped / 20.0, 0.5, 0.05);
    }
    INFO("start " << start << " end " << c);
    CHECK(c >= 10.0);
    CHECK(c < 11.0);
  }
}

TEST_CASE("adaptive clipping: the ledger composes the count's subsampled Gaussian") {
  server::DpMechanism::Options o;
  o.sampling_rate = 0.25;
  o.noise_multiplier = 1.0;
  const privacy::DpEvent fixed = server::DpMechanism::event(o, 200);
  o.clipping = server::Clipping::adaptive;
  o.clip_count_noise = 3.0;
  const privacy::DpEvent adaptive = server::DpMechanism::event(o, 200);
  CHECK(adaptive ==
        privacy::DpEvent::composed(
            {fixed, privacy::sampled_gaussian(privacy::Sampling::poisson, 0.25, 3.0, 200)}));
  // Never understated: the pair costs more than the messages alone (q < 1, T = 40).
  privacy::PldAccountant with_count, without;
  with_count.compose(adaptive, 40);
  without.compose(fixed, 40);
  CHECK(with_count.epsilon(1e-5).epsilon > without.epsilon(1e-5).epsilon);

  // q = 1: T rounds of Gaussian(z) and Gaussian(sigma_b), both of sensitivity 1, are exactly one
  // Gaussian mechanism of noise s with 1/s^2 = T (1/z^2 + 1/sigma_b^2) (their privacy-loss
  // distributions are Gaussian and convolve). The PLD accountant's epsilon must bracket the
  // analytic-Gaussian epsilon; the RDP accountant must bound it from above.
  for (const auto& [z, sigma_b, rounds] :
       {std::tuple{1.0, 3.0, 40}, std::tuple{2.0, 2.0, 10}, std::tuple{0.8, 5.0, 60}}) {
    server::DpMechanism::Options a = o;
    a.sampling_rate = 1.0;
    a.noise_multiplier = z;
    a.clip_count_noise = sigma_b;
    const double s = 1 / std::sqrt(rounds * (1 / (z * z) + 1 / (sigma_b * sigma_b)));
    const double exact = fbosim::test::analytic_gaussian_epsilon(s, 1e-5);
    privacy::PldAccountant pld;
    pld.compose(server::DpMechanism::event(a, 50), rounds);
    const privacy::EpsilonBounds b = pld.epsilon_bounds(1e-5);
    INFO("z " << z << " sigma_b " << sigma_b << " T " << rounds << " exact " << exact);
    CHECK(b.lower <= exact + 1e-9);
    CHECK(exact <= b.upper + 1e-9);
    CHECK(b.upper - exact <= 2e-3 * exact);
    CHECK(pld.epsilon(1e-5).epsilon >= exact - 1e-9);
    privacy::RdpAccountant rdp;
    rdp.compose(server::DpMechanism::event(a, 50), rounds);
    CHECK(rdp.epsilon(1e-5).epsilon >= exact);
  }
}

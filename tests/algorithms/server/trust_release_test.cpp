// The releases without a trusted server (server.trust: distributed, local; issue 42) against
// independent computations: the secure sum recomputed share by share from a copy of the
// stream, the noise actually summed measured by Monte Carlo against the charged event, the
// shares' calibration against its closed forms.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/server/privatized_mechanism.hpp"
#include "algorithms/server/trust_model.hpp"

using namespace fbosim;
using server::DpMechanism;
using server::Sampler;
using server::ShareCalibration;
using server::Trust;
using server::TrustOptions;

namespace {

server::Messages trust_pointers(const std::vector<Eigen::VectorXd>& v) {
  server::Messages m;
  for (const auto& x : v) m.push_back(&x);
  return m;
}

struct TrustRound {
  std::vector<Eigen::VectorXd> msgs;
  Eigen::MatrixXd w;
};

// N messages of norms on both sides of the clip bound; P x N row-normalised weights.
TrustRound trust_round(int N, int M, int P, std::uint64_t seed) {
  core::RngStream gen(seed);
  TrustRound r;
  for (int n = 0; n < N; ++n) r.msgs.push_back(gen.normal_vector(M) * (0.5 + n));
  r.w = gen.uniform_matrix(P, N);
  for (int i = 0; i < P; ++i) r.w.row(i) /= r.w.row(i).sum();
  return r;
}

Eigen::VectorXd clip_hand(const Eigen::VectorXd& v, double bound) {
  return v.norm() > bound ? Eigen::VectorXd(v * (bound / v.norm())) : v;
}

DpMechanism::Options distributed(double q, double z, double S) {
  DpMechanism::Options o;
  o.sampling_rate = q;
  o.noise_multiplier = z;
  o.clip_norm = S;
  o.trust.trust = Trust::distributed;
  return o;
}

// The charge of `agent` in `charges`, if any (the first that names it).
std::optional<privacy::DpEvent> charge_of(const std::vector<protocol::AgentCharge>& charges,
                                          int agent) {
  for (const auto& c : charges)
    if (c.everyone || std::find(c.agents.begin(), c.agents.end(), agent) != c.agents.end())
      return c.event;
  return std::nullopt;
}

// The Monte Carlo std of coordinate 0 of sub-region 0 over `draws` releases of zero messages
// (the release is then its noise alone).
double noise_sd(const DpMechanism& mech, const server::Messages& m, const Eigen::MatrixXd& w,
                int draws) {
  core::RngStream rng(99);
  double s2 = 0;
  for (int d = 0; d < draws; ++d) {
    const server::WeightedRelease r = mech.release(m, w, rng);
    REQUIRE(r.omegas.size() == static_cast<std::size_t>(w.rows()));
    s2 += r.omegas[0][0] * r.omegas[0][0];
  }
  return std::sqrt(s2 / draws);
}

}  // namespace

TEST_CASE("noise shares: factor 1 / ((1 - rho) m - c), survivors and z_eff by closed form") {
  TrustOptions t;
  t.trust = Trust::distributed;
  const ShareCalibration plain(t, 8);
  CHECK(plain.factor() == Approx(1.0 / 8));
  CHECK(plain.min_survivors() == 1);
  CHECK(plain.effective_z(2.0, 8) == 2.0);  // no dropout: exactly z
  CHECK(plain.effective_z(2.0, 4) == Approx(2.0 * std::sqrt(4.0 / 8)));
  CHECK_FALSE(plain.releases(0));
  t.dropout_padding = 0.5;
  const ShareCalibration padded(t, 8);
  CHECK(padded.factor() == Approx(1.0 / 4));
  CHECK(padded.min_survivors() == 4);
  CHECK_FALSE(padded.releases(3));
  CHECK(padded.effective_z(2.0, 4) == Approx(2.0));
  CHECK(padded.effective_z(2.0, 6) == Approx(2.0 * std::sqrt(6.0 / 4)));
  CHECK_THROWS_AS(padded.effective_z(2.0, 3), std::logic_error);
  t.dropout_padding = 0;
  t.colluders = 2;
  const ShareCalibration colluding(t, 8);
  CHECK(colluding.factor() == Approx(1.0 / 6));  // shares scaled by m / (m - c)
  CHECK(colluding.effective_z(2.0, 8) == Approx(2.0));
  CHECK(colluding.effective_z(2.0, 5) == Approx(2.0 * std::sqrt(3.0 / 6)));
  CHECK_FALSE(colluding.releases(2));  // only the colluders' own shares: no honest noise
  t.colluders = 8;
  CHECK_FALSE(ShareCalibration(t, 8).feasible());
  CHECK_THROWS_AS(ShareCalibration(t, 8).factor(), std::logic_error);
}

TEST_CASE(
    "distributed, q = 1, all survive: the secure sum is the central weighted sum plus the "
    "summed shares") {
  const int N = 5, M = 3, P = 2;
  const double z = 0.7, S = 2.0;
  const TrustRound r = trust_round(N, M, P, 11);
  const DpMechanism mech(distributed(1.0, z, S), M);
  core::RngStream rng(5);
  core::RngStream replay = rng;
  const server::WeightedRelease out = mech.release(trust_pointers(r.msgs), r.w, rng);
  // Independently: the selection (q = 1 still draws its coins), then for every agent in order,
  // every sub-region, every entry one share of std sigma_i / sqrt(m), sigma_i = z w_max S / q.
  (void)mech.select(N, replay);
  const double bound = S / std::sqrt(double(P));
  const double sigma = z * r.w.maxCoeff() * S / 1.0;
  std::vector<Eigen::VectorXd> central(P, Eigen::VectorXd::Zero(M)), shares = central;
  for (int n = 0; n < N; ++n)
    for (int i = 0; i < P; ++i) {
      central[i] += r.w(i, n) * clip_hand(r.msgs[n], bound);
      for (int k = 0; k < M; ++k) shares[i][k] += sigma / std::sqrt(double(N)) * replay.normal();
    }
  REQUIRE(out.omegas.size() == std::size_t(P));
  for (int i = 0; i < P; ++i)
    CHECK((out.omegas[i] - (central[i] + shares[i])).cwiseAbs().maxCoeff() < 1e-12);
  REQUIRE(out.event);
  CHECK(*out.event == privacy::DpEvent::gaussian(z));
  REQUIRE(out.charges);
  for (int n = 0; n < N; ++n)
    CHECK(charge_of(out.charges->server, n) == privacy::DpEvent::gaussian(z));
  // Against an observer of the broadcast (no dropout, no colluder): the central accounting.
  CHECK(charge_of(out.charges->broadcast, 0) ==
        privacy::sampled_gaussian(privacy::Sampling::poisson, 1.0, z, N));
  CHECK(out.stats.noise_std == Approx(sigma));
}

TEST_CASE(
    "distributed, dropouts without padding: the survivors are charged the noise actually "
    "summed, and it is what was summed") {
  const int N = 8, M = 2, P = 1;
  const double z = 1.5, S = 1.0;
  std::vector<Eigen::VectorXd> zeros(N, Eigen::VectorXd::Zero(M));
  server::Messages m = trust_pointers(zeros);
  for (int n = 0; n < N; n += 2) m[n] = nullptr;  // 4 of the 8 selected drop out
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(P, N, 1.0 / N);
  const DpMechanism mech(distributed(1.0, z, S), M);
  core::RngStream rng(1);
  const server::WeightedRelease out = mech.release(m, w, rng);
  const double sigma = z * (1.0 / N) * S;
  // 4 shares of variance sigma^2 / 8: sigma_eff = sigma / sqrt(2), z_eff = sigma_eff / (w_max S).
  const double z_eff = sigma / std::sqrt(2.0) / ((1.0 / N) * S);
  REQUIRE(out.charges);
  for (int n = 1; n < N; n += 2) {
    const auto e = charge_of(out.charges->server, n);
    REQUIRE(e);
    CHECK(e->as<privacy::Gaussian>()->noise_multiplier == Approx(z_eff).epsilon(1e-14));
  }
  for (int n = 0; n < N; n += 2) CHECK_FALSE(charge_of(out.charges->server, n));
  // Against the broadcast observer (a dropout this round): everyone at the survivors' Gaussian.
  CHECK(charge_of(out.charges->broadcast, 0)->as<privacy::Gaussian>()->noise_multiplier ==
        Approx(z_eff).epsilon(1e-14));
  CHECK(noise_sd(mech, m, w, 40000) == Approx(sigma / std::sqrt(2.0)).epsilon(0.03));
}

TEST_CASE(
    "distributed with padding: shares of sigma^2 / ((1 - rho) m), and below (1 - rho) m "
    "survivors nothing is released and nobody charged") {
  const int N = 8, M = 2, P = 1;
  const double z = 1.0, S = 1.0;
  std::vector<Eigen::VectorXd> zeros(N, Eigen::VectorXd::Zero(M));
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(P, N, 1.0 / N);
  DpMechanism::Options o = distributed(1.0, z, S);
  o.trust.dropout_padding = 0.5;
  const DpMechanism mech(o, M);
  const double sigma = z * (1.0 / N) * S;
  server::Messages m = trust_pointers(zeros);
  for (int n = 0; n < 5; ++n) m[n] = nullptr;  // 3 survivors < 4
  core::RngStream rng(2);
  const server::WeightedRelease aborted = mech.release(m, w, rng);
  CHECK(aborted.omegas.empty());
  CHECK_FALSE(aborted.event);
  REQUIRE(aborted.charges);
  CHECK(aborted.charges->server.empty());
  CHECK(aborted.charges->broadcast.empty());
  m[4] = &zeros[4];  // 4 survivors: exactly sigma
  const server::WeightedRelease out = mech.release(m, w, rng);
  CHECK(charge_of(out.charges->server, 4)->as<privacy::Gaussian>()->noise_multiplier ==
        Approx(z).epsilon(1e-14));
  CHECK(noise_sd(mech, m, w, 40000) == Approx(sigma).epsilon(0.03));
  // Everyone survives: 8 shares of sigma^2 / 4.
  CHECK(noise_sd(mech, trust_pointers(zeros), w, 40000) ==
        Approx(sigma * std::sqrt(2.0)).epsilon(0.03));
}

TEST_CASE("distributed with colluders: the others' shares carry sigma^2") {
  const int N = 6, M = 2, P = 1;
  std::vector<Eigen::VectorXd> zeros(N, Eigen::VectorXd::Zero(M));
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(P, N, 1.0 / N);
  DpMechanism::Options o = distributed(1.0, 2.0, 1.0);
  o.trust.colluders = 2;
  const DpMechanism mech(o, M);
  const double sigma = 2.0 * (1.0 / N);
  core::RngStream rng(3);
  const server::WeightedRelease out = mech.release(trust_pointers(zeros), w, rng);
  CHECK(charge_of(out.charges->server, 0)->as<privacy::Gaussian>()->noise_multiplier ==
        Approx(2.0).epsilon(1e-14));
  // Colluders: the broadcast observer is charged the Gaussian, not the subsampled one.
  CHECK(charge_of(out.charges->broadcast, 0) == out.charges->server.front().event);
  // 6 shares of sigma^2 / 4 each in all.
  CHECK(noise_sd(mech, trust_pointers(zeros), w, 40000) ==
        Approx(sigma * std::sqrt(6.0 / 4)).epsilon(0.03));
}

TEST_CASE(
    "distributed, agent-side sampling: every agent in the sum, zero vectors for the coins "
    "that say no, the subsampled Gaussian charged") {
  const int N = 6, M = 3, P = 2;
  const double q = 0.5, z = 0.9, S = 1.5;
  const TrustRound r = trust_round(N, M, P, 12);
  DpMechanism::Options o = distributed(q, z, S);
  o.trust.sampled_by = Sampler::agents;
  const DpMechanism mech(o, M);
  core::RngStream rng(8);
  core::RngStream replay = rng;
  const server::WeightedRelease out = mech.release(trust_pointers(r.msgs), r.w, rng);
  const std::vector<bool> coins = mech.select(N, replay);
  const double bound = S / std::sqrt(double(P));
  const double sigma = z * r.w.maxCoeff() * S / q;
  std::vector<Eigen::VectorXd> expected(P, Eigen::VectorXd::Zero(M));
  int selected = 0;
  for (int n = 0; n < N; ++n) {
    selected += coins[n];
    for (int i = 0; i < P; ++i) {
      if (coins[n]) expected[i] += r.w(i, n) * clip_hand(r.msgs[n], bound) / q;
      for (int k = 0; k < M; ++k) expected[i][k] += sigma / std::sqrt(double(N)) * replay.normal();
    }
  }
  REQUIRE(selected > 0);
  REQUIRE(selected < N);  // the seed gives both kinds of coin
  for (int i = 0; i < P; ++i) CHECK((out.omegas[i] - expected[i]).cwiseAbs().maxCoeff() < 1e-12);
  CHECK(out.stats.selected == selected);
  const privacy::DpEvent sampled = privacy::sampled_gaussian(privacy::Sampling::poisson, q, z, N);
  for (int n = 0; n < N; ++n) {
    CHECK(charge_of(out.charges->server, n) == sampled);
    CHECK(charge_of(out.charges->broadcast, n) == sampled);
  }
}

TEST_CASE(
    "local: each selected agent's clipped vector plus noise of std z_local 2 S / sqrt(P), "
    "weighted by the server, every message sent charged, arrived or not") {
  const int N = 4, M = 3, P = 2;
  const double S = 2.0, zl = 0.8;
  const TrustRound r = trust_round(N, M, P, 13);
  DpMechanism::Options o;
  o.sampling_rate = 1.0;
  o.clip_norm = S;
  o.trust.trust = Trust::local;
  o.trust.local_z = zl;
  const DpMechanism mech(o, M);
  server::Messages m = trust_pointers(r.msgs);
  m[2] = nullptr;  // lost on the way
  core::RngStream rng(4);
  core::RngStream replay = rng;
  const server::WeightedRelease out = mech.release(m, r.w, rng);
  (void)mech.select(N, replay);
  const double bound = S / std::sqrt(double(P));
  std::vector<Eigen::VectorXd> expected(P, Eigen::VectorXd::Zero(M));
  for (int n = 0; n < N; ++n) {
    if (n == 2) continue;
    Eigen::VectorXd v = clip_hand(r.msgs[n], bound);
    for (int k = 0; k < M; ++k) v[k] += zl * 2 * bound * replay.normal();
    for (int i = 0; i < P; ++i) expected[i] += r.w(i, n) * v;
  }
  for (int i = 0; i < P; ++i) CHECK((out.omegas[i] - expected[i]).cwiseAbs().maxCoeff() < 1e-12);
  for (int n = 0; n < N; ++n)
    CHECK(charge_of(out.charges->server, n) == privacy::DpEvent::gaussian(zl));
  CHECK(out.stats.selected == 3);
  CHECK(out.stats.noise_std == Approx(zl * 2 * bound));
}

TEST_CASE("local: the noise added is the charged multiplier times the diameter 2 S / sqrt(P)") {
  const int M = 2, P = 2;
  DpMechanism::Options o;
  o.sampling_rate = 1.0;
  o.clip_norm = 3.0;
  o.trust.trust = Trust::local;
  o.trust.local_z = 0.5;
  const DpMechanism mech(o, M);
  std::vector<Eigen::VectorXd> zeros(1, Eigen::VectorXd::Zero(M));
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(P, 1, 1.0);
  CHECK(noise_sd(mech, trust_pointers(zeros), w, 40000) ==
        Approx(0.5 * 2 * 3.0 / std::sqrt(2.0)).epsilon(0.03));
}

TEST_CASE("local, selection by the server: unselected agents send nothing and are not charged") {
  const int N = 40, M = 2, P = 1;
  DpMechanism::Options o;
  o.sampling_rate = 0.25;
  o.trust.trust = Trust::local;
  const DpMechanism mech(o, M);
  std::vector<Eigen::VectorXd> zeros(N, Eigen::VectorXd::Zero(M));
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(P, N, 1.0 / N);
  core::RngStream rng(6), replay = rng;
  const server::WeightedRelease out = mech.release(trust_pointers(zeros), w, rng);
  const std::vector<bool> chosen = mech.select(N, replay);
  for (int n = 0; n < N; ++n) CHECK(charge_of(out.charges->server, n).has_value() == chosen[n]);
}

TEST_CASE(
    "local with a secret coin: every agent sends, the noise alone when its coin says no, every "
    "message charged the coin's replace-one event, arrived or not") {
  const int N = 6, M = 3, P = 2;
  const double S = 2.0, zl = 0.8, q = 0.5;
  const TrustRound r = trust_round(N, M, P, 17);
  DpMechanism::Options o;
  o.sampling_rate = q;
  o.clip_norm = S;
  o.trust.trust = Trust::local;
  o.trust.local_z = zl;
  o.trust.local_coin = true;
  const DpMechanism mech(o, M);
  server::Messages m = trust_pointers(r.msgs);
  m[1] = nullptr;  // lost on the way
  core::RngStream rng(9);
  core::RngStream replay = rng;
  const server::WeightedRelease out = mech.release(m, r.w, rng);
  const std::vector<bool> coins = mech.select(N, replay);
  REQUIRE(std::count(coins.begin(), coins.end(), true) > 0);
  REQUIRE(std::count(coins.begin(), coins.end(), false) > 1);
  const double bound = S / std::sqrt(double(P));
  std::vector<Eigen::VectorXd> expected(P, Eigen::VectorXd::Zero(M));
  int selected = 0;
  for (int n = 0; n < N; ++n) {
    if (n == 1) continue;
    Eigen::VectorXd v = coins[n] ? clip_hand(r.msgs[n], bound) : Eigen::VectorXd::Zero(M);
    selected += coins[n];
    for (int k = 0; k < M; ++k) v[k] += zl * 2 * bound * replay.normal();
    for (int i = 0; i < P; ++i) expected[i] += r.w(i, n) * v / q;
  }
  for (int i = 0; i < P; ++i) CHECK((out.omegas[i] - expected[i]).cwiseAbs().maxCoeff() < 1e-12);
  // Wang, Balle & Kasiviswanathan's subsampled Gaussian at m/n = 1/2, sensitivity 2 x 2 z_local.
  const privacy::DpEvent coin =
      privacy::DpEvent::fixed_sampled(1, 2, privacy::DpEvent::gaussian(2 * zl));
  for (int n = 0; n < N; ++n) {
    CHECK(charge_of(out.charges->server, n) == coin);
    CHECK(charge_of(out.charges->broadcast, n) == coin);
  }
  CHECK(out.event == coin);
  CHECK(DpMechanism::event(o, N) == coin);
  CHECK(out.stats.selected == selected);
}

TEST_CASE("the privatised mechanism passes the charges on, an aborted sum broadcasts nothing") {
  struct Uniform final : protocol::LinearAggregator {
    Eigen::MatrixXd weights(int, int n) const override {
      return Eigen::MatrixXd::Constant(1, n, 1.0 / n);
    }
    int features() const override { return 2; }
  };
  DpMechanism::Options o = distributed(1.0, 1.0, 1.0);
  o.trust.dropout_padding = 0.5;
  const server::PrivatizedMechanism mech(std::make_shared<Uniform>(), o);
  protocol::Inbox in(4);
  in[0] = std::make_shared<const protocol::Message>(protocol::RffSample{Eigen::VectorXd::Ones(2)});
  core::RngStream rng(1);
  const protocol::Release aborted = mech.release(in, 0, rng);  // 1 of 4 < 2
  CHECK(std::holds_alternative<protocol::NoBroadcast>(aborted.broadcast));
  REQUIRE(aborted.charges);
  CHECK(aborted.charges->server.empty());
  in[1] = in[0];
  const protocol::Release out = mech.release(in, 0, rng);
  CHECK(std::holds_alternative<protocol::RegionSamples>(out.broadcast));
  CHECK(out.event == privacy::DpEvent::gaussian(1.0));
  REQUIRE(out.charges);
  CHECK(out.charges->server.front().agents == std::vector<int>{0, 1});
  CHECK(mech.event(4) == privacy::DpEvent::gaussian(1.0));
}

TEST_CASE("trust options out of range or refused are errors naming the key") {
  const auto refused = [](DpMechanism::Options o, const std::string& text) {
    try {
      DpMechanism(o, 2);
      FAIL("accepted");
    } catch (const std::invalid_argument& e) {
      CHECK_THAT(e.what(), Catch::Contains(text));
    }
  };
  DpMechanism::Options o = distributed(0.5, 1.0, 1.0);
  o.clipping = server::Clipping::adaptive;
  refused(o, "server.clipping: adaptive is refused with server.trust: distributed");
  o = distributed(0.5, 1.0, 1.0);
  o.trust.sampled_by = Sampler::agents;
  o.sampling = privacy::Sampling::fixed;
  refused(o, "server.sampling: fixed");
  o = distributed(0.5, 1.0, 1.0);
  o.trust.dropout_padding = 1.0;
  refused(o, "server.dropout_padding must be in [0, 1), got 1");
  o = distributed(0.5, 1.0, 1.0);
  o.trust.colluders = -1;
  refused(o, "server.colluders must be >= 0, got -1");
  o = DpMechanism::Options{};
  o.trust.trust = Trust::local;
  o.trust.local_z = 0;
  refused(o, "server.local_z must be finite and > 0, got 0");
  o.trust.local_z = 1;
  o.trust.local_coin = true;
  o.sampling = privacy::Sampling::fixed;
  refused(o, "server.local_coin: each agent draws its coin in secret");
}

TEST_CASE(
    "distributed, nobody selected: the server releases the full noise itself and charges "
    "nobody against it") {
  const int N = 3, M = 2, P = 1;
  std::vector<Eigen::VectorXd> zeros(N, Eigen::VectorXd::Zero(M));
  const Eigen::MatrixXd w = Eigen::MatrixXd::Constant(P, N, 1.0 / N);
  DpMechanism::Options o = distributed(0.001, 1.0, 1.0);
  o.trust.dropout_padding = 0.2;
  const DpMechanism mech(o, M);
  core::RngStream rng(7), replay = rng;
  const std::vector<bool> chosen = mech.select(N, replay);
  REQUIRE(std::count(chosen.begin(), chosen.end(), true) == 0);
  const server::WeightedRelease out = mech.release(trust_pointers(zeros), w, rng);
  REQUIRE(out.omegas.size() == 1);
  CHECK(out.charges->server.empty());
  CHECK(charge_of(out.charges->broadcast, 2) ==
        privacy::sampled_gaussian(privacy::Sampling::poisson, 0.001, 1.0 / std::sqrt(0.8), N));
  // The noise of a full sum: sigma / sqrt(1 - rho), sigma = z w_max S / q.
  const double sigma = 1.0 * (1.0 / N) * 1.0 / 0.001;
  CHECK(out.stats.noise_std == Approx(sigma / std::sqrt(0.8)));
  CHECK(noise_sd(mech, trust_pointers(zeros), w, 40000) ==
        Approx(sigma / std::sqrt(0.8)).epsilon(0.03));
}

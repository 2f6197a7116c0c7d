// Personal privacy in the server's release (personal.*, issue 42 sec. 2) against independent
// computations: the sum and the noise std recomputed by hand with the public divisor q_ref,
// each agent's selection frequency against its q_n, its charge against the subsampled Gaussian
// built from its own rate, the tiers' sizes against floor(N (f_1 + ... + f_i) + 1/2).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/server/personal_privacy.hpp"

using namespace fbosim;
using server::DpMechanism;
using server::PersonalKeys;
using server::PersonalPrivacy;

namespace {

server::Messages personal_pointers(const std::vector<Eigen::VectorXd>& v) {
  server::Messages m;
  for (const auto& x : v) m.push_back(&x);
  return m;
}

DpMechanism::Options personal_options(std::vector<double> rates, double q_ref, double z) {
  DpMechanism::Options o;
  o.sampling_rate = 0.5;
  o.noise_multiplier = z;
  o.clip_norm = 4;
  o.personal.rates = std::move(rates);
  o.personal.q_ref = q_ref;
  return o;
}

}  // namespace

TEST_CASE("personal rates: the sum and the noise are divided by q_ref, never by q_n") {
  // Every agent selected (q_n = 1) but q_ref = 0.25: the sum is 4 times the weighted sum of the
  // clipped messages; a division by q_n would leave it at 1 time.
  const int N = 3, M = 4, P = 2;
  core::RngStream gen(7);
  std::vector<Eigen::VectorXd> msgs;
  for (int n = 0; n < N; ++n) msgs.push_back(gen.normal_vector(M) * (1.0 + n));
  Eigen::MatrixXd w = gen.uniform_matrix(P, N);
  for (int i = 0; i < P; ++i) w.row(i) /= w.row(i).sum();
  const double z = 1e-9;  // the noise vanishes beside the sum
  const DpMechanism mech(personal_options({1.0, 1.0, 1.0}, 0.25, z), M);
  const double bound = 4 / std::sqrt(2.0);
  core::RngStream rng(3);
  const server::WeightedRelease out = mech.release(personal_pointers(msgs), w, rng);
  for (int i = 0; i < P; ++i) {
    Eigen::VectorXd hand = Eigen::VectorXd::Zero(M);
    for (int n = 0; n < N; ++n) {
      const Eigen::VectorXd& v = msgs[static_cast<std::size_t>(n)];
      const Eigen::VectorXd c = v.norm() > bound ? Eigen::VectorXd(v * (bound / v.norm())) : v;
      hand += w(i, n) * c / 0.25;
    }
    CHECK((out.omegas[static_cast<std::size_t>(i)] - hand).norm() < 1e-6);
  }
  // sigma_i = z w_max S / q_ref with the global w_max.
  const std::vector<double> stds = mech.noise_stds(w, N);
  for (const double s : stds) CHECK(s == Approx(z * w.maxCoeff() * 4 / 0.25).epsilon(1e-12));
}

TEST_CASE("personal rates: agent n is selected with its own q_n") {
  const std::vector<double> rates{0.1, 0.5, 0.9};
  const DpMechanism mech(personal_options(rates, 0.5, 1.0), 2);
  core::RngStream rng(11);
  const int draws = 20000;
  std::vector<int> hits(3, 0);
  for (int k = 0; k < draws; ++k) {
    const std::vector<bool> c = mech.select(3, rng);
    for (std::size_t n = 0; n < 3; ++n) hits[n] += c[n] ? 1 : 0;
  }
  for (std::size_t n = 0; n < 3; ++n) {
    const double sd = std::sqrt(rates[n] * (1 - rates[n]) / draws);
    INFO("agent " << n << " frequency " << hits[n] / double(draws));
    CHECK(std::abs(hits[n] / double(draws) - rates[n]) < 5 * sd);
  }
}

TEST_CASE("personal rates: each agent is charged the subsampled Gaussian at its own q_n") {
  const std::vector<double> rates{0.2, 0.6, 0.2, 1.0};
  const double z = 1.3;
  const DpMechanism mech(personal_options(rates, 0.5, z), 3);
  std::vector<Eigen::VectorXd> msgs(4, Eigen::VectorXd::Ones(3));
  Eigen::MatrixXd w = Eigen::MatrixXd::Constant(1, 4, 0.25);
  core::RngStream rng(5);
  const server::WeightedRelease out = mech.release(personal_pointers(msgs), w, rng);
  REQUIRE(out.charges);
  for (const auto* view : {&out.charges->server, &out.charges->broadcast}) {
    std::vector<int> charged(4, 0);
    for (const protocol::AgentCharge& c : *view) {
      REQUIRE_FALSE(c.everyone);
      for (const int n : c.agents) {
        ++charged[static_cast<std::size_t>(n)];
        const auto* ps = c.event.as<privacy::PoissonSampled>();
        REQUIRE(ps);
        CHECK(ps->sampling_probability == rates[static_cast<std::size_t>(n)]);
        const auto* g = ps->event->as<privacy::Gaussian>();
        REQUIRE(g);
        CHECK(g->noise_multiplier == z);
      }
    }
    CHECK(charged == std::vector<int>{1, 1, 1, 1});  // everyone, selected or not
  }
  // The nominal event bounds them all: the largest rate.
  const auto* nominal = out.event->as<privacy::PoissonSampled>();
  REQUIRE(nominal);
  CHECK(nominal->sampling_probability == 1.0);
}

TEST_CASE("personal tiers: exact sizes, rates and budgets per tier, q_ref the mean") {
  PersonalKeys k;
  k.tier_fractions = {0.3, 0.3, 0.4};
  k.tier_rates = {0.1, 0.2, 0.5};
  k.tier_budgets = {1, 4, 16};
  for (const int N : {1, 7, 10, 33}) {
    const PersonalPrivacy p = server::resolve_personal(k, 0.9, N, 42);
    std::vector<int> size(4, 0);
    for (const int t : p.tiers) ++size[static_cast<std::size_t>(t)];
    double cum = 0;
    int before = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      cum += k.tier_fractions[i];
      const int upto = static_cast<int>(std::floor(N * cum + 0.5));
      CHECK(size[i + 1] == upto - before);
      before = upto;
    }
    double mean = 0;
    for (int n = 0; n < N; ++n) {
      const int t = p.tiers[static_cast<std::size_t>(n)];
      REQUIRE(t >= 1);
      CHECK(p.rates[static_cast<std::size_t>(n)] == k.tier_rates[static_cast<std::size_t>(t - 1)]);
      CHECK(p.budgets[static_cast<std::size_t>(n)] ==
            k.tier_budgets[static_cast<std::size_t>(t - 1)]);
      mean += p.rates[static_cast<std::size_t>(n)] / N;
    }
    CHECK(p.q_ref == Approx(mean).epsilon(1e-12));
  }
  // The rest of the agents (fractions summing below 1) keep q and no budget.
  k.tier_fractions = {0.5};
  k.tier_rates = {0.1};
  k.tier_budgets = {2};
  const PersonalPrivacy p = server::resolve_personal(k, 0.9, 10, 1);
  for (std::size_t n = 0; n < 10; ++n)
    if (p.tiers[n] == 0) {
      CHECK(p.rates[n] == 0.9);
      CHECK(std::isinf(p.budgets[n]));
    }
}

TEST_CASE("personal keys: lists per agent, a given q_ref, and the refusals name the key") {
  PersonalKeys k;
  k.sampling_rates = {0.1, 0.3};
  k.budgets = {1, 2};
  k.q_ref = 0.5;
  const PersonalPrivacy p = server::resolve_personal(k, 0.9, 2, 0);
  CHECK(p.rates == std::vector<double>{0.1, 0.3});
  CHECK(p.budgets == std::vector<double>{1, 2});
  CHECK(p.q_ref == 0.5);
  const auto message = [](const PersonalKeys& keys, int n) {
    try {
      server::check_personal(keys, n);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message(k, 3).rfind("personal.sampling_rates must have one entry per agent", 0) == 0);
  PersonalKeys both = k;
  both.tier_fractions = {1.0};
  both.tier_rates = {0.2};
  CHECK(message(both, 2).find("exclude each other") != std::string::npos);
  PersonalKeys tiers;
  tiers.tier_fractions = {0.6, 0.6};
  tiers.tier_budgets = {1, 2};
  CHECK(message(tiers, 4).rfind("personal.tiers.fractions must sum to at most 1", 0) == 0);
  tiers.tier_fractions = {0.5};
  CHECK(message(tiers, 4).rfind("personal.tiers.budgets must have one entry per tier", 0) == 0);
}

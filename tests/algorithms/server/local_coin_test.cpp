// Local DP with a secret coin (server.local_coin, issue 42): the replace-one bound of one
// message (local_coin.hpp: Wang, Balle & Kasiviswanathan 2019, Thm. 9) against an independent
// computation, the Renyi and hockey-stick divergences of the two messages' laws integrated
// numerically, and the fraction that stands for q.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "algorithms/privacy/rdp_accountant.hpp"
#include "algorithms/server/local_coin.hpp"

using namespace fbosim;

namespace {

// In units of the clip radius r = 1 (the sensitivity of local DP is the diameter 2): one
// coordinate of a message, q N(a, s^2) + (1 - q) N(0, s^2) with s = 2 z_local. The other
// coordinates of x and x' (in their common plane) are left at 0 here: a 1-D pair is a valid
// neighbouring pair, so every bound must hold for it.
struct Pair {
  double a, b;  // the two vectors' coordinates, |a|, |b| <= 1
};

double log_mixture(double x, double q, double mean, double s) {
  const auto log_normal = [s](double x, double m) {
    return -0.5 * ((x - m) / s) * ((x - m) / s) - std::log(s * std::sqrt(2 * M_PI));
  };
  const double u = std::log(q) + log_normal(x, mean), v = std::log1p(-q) + log_normal(x, 0);
  const double hi = std::max(u, v);
  return hi + std::log(std::exp(u - hi) + std::exp(v - hi));
}

// log of the integral of exp(f) over [-L, L] by Simpson's rule on n (even) cells, in log space.
double log_integral(const std::function<double(double)>& f, double L, int n) {
  const double h = 2 * L / n;
  std::vector<double> v(static_cast<std::size_t>(n + 1));
  for (int i = 0; i <= n; ++i) v[static_cast<std::size_t>(i)] = f(-L + i * h);
  const double top = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (int i = 0; i <= n; ++i) {
    const double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    sum += w * std::exp(v[static_cast<std::size_t>(i)] - top);
  }
  return top + std::log(sum * h / 3);
}

// D_alpha(P || Q) = log(int p^alpha q^(1 - alpha)) / (alpha - 1).
double renyi(double q, double z, Pair p, double alpha) {
  const double s = 2 * z;
  const auto f = [&](double x) {
    return alpha * log_mixture(x, q, p.a, s) + (1 - alpha) * log_mixture(x, q, p.b, s);
  };
  return log_integral(f, 2 * (alpha + 1) + 40 * s, 40000) / (alpha - 1);
}

// H_{e^eps}(P || Q) = int max(0, p - e^eps q).
double hockey_stick(double q, double z, Pair p, double eps) {
  const double s = 2 * z, L = 2 + 40 * s;
  const int n = 200000;
  const double h = 2 * L / n;
  double sum = 0;
  for (int i = 0; i <= n; ++i) {
    const double x = -L + i * h;
    const double d =
        std::exp(log_mixture(x, q, p.a, s)) - std::exp(eps + log_mixture(x, q, p.b, s));
    const double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    if (d > 0) sum += w * d;
  }
  return sum * h / 3;
}

const std::vector<Pair> kPairs = {{1, -1}, {-1, 1}, {1, 0}, {0, 1}, {1, 0.3}, {-0.5, 1}};

}  // namespace

TEST_CASE("local coin: the fraction standing for q is the smallest one >= q") {
  const auto check = [](double q, int m, int n) {
    INFO("q = " << q);
    const server::CoinFraction f = server::coin_fraction(q);
    CHECK(f.m == m);
    CHECK(f.n == n);
  };
  check(0.25, 1, 4);
  check(0.35, 7, 20);
  check(0.3, 3, 10);  // 3/10 >= the double 0.29999999999999998890
  check(1.0 / 3, 1, 3);
  check(1.0, 1, 1);
  check(0.123456789, 123457, 1000000);  // 123456.789 rounded up
  CHECK_THROWS_AS(server::coin_fraction(0), std::invalid_argument);
  CHECK_THROWS_AS(server::coin_fraction(1.5), std::invalid_argument);
  CHECK_THROWS_AS(server::local_coin_event(0.5, 0), std::invalid_argument);
  const privacy::DpEvent e = server::local_coin_event(0.25, 1.5);
  CHECK(e == privacy::DpEvent::fixed_sampled(1, 4, privacy::DpEvent::gaussian(3.0)));
}

TEST_CASE(
    "local coin: the replace-one RDP bound is at least the Renyi divergence of the two "
    "messages' laws, integrated numerically") {
  for (const double q : {0.1, 0.25, 0.5})
    for (const double z : {0.5, 1.0, 2.0}) {
      const privacy::DpEvent e = server::local_coin_event(q, z);
      const auto* f = e.as<privacy::FixedSampled>();
      REQUIRE(f);
      const double gamma = double(f->sample_size) / f->population;
      const double zb = f->event->as<privacy::Gaussian>()->noise_multiplier;
      for (const int alpha : {2, 3, 4, 8, 16})
        for (const Pair p : kPairs) {
          INFO("q " << q << " z " << z << " alpha " << alpha << " pair " << p.a << "," << p.b);
          const double bound = privacy::RdpAccountant::fixed_rdp(gamma, zb, alpha);
          const double exact = renyi(q, z, p, alpha);
          CHECK(exact <= bound);
          CHECK(exact > 0);
        }
    }
}

TEST_CASE(
    "local coin: one message's epsilon by the rdp accountant bounds the hockey-stick "
    "divergence of the two messages' laws") {
  for (const double q : {0.1, 0.5})
    for (const double z : {0.7, 2.0})
      for (const double delta : {1e-5, 1e-2}) {
        privacy::RdpAccountant acc;
        acc.compose(server::local_coin_event(q, z));
        const double eps = acc.epsilon(delta).epsilon;
        for (const Pair p : kPairs) {
          INFO("q " << q << " z " << z << " delta " << delta << " eps " << eps << " pair " << p.a
                    << "," << p.b);
          CHECK(hockey_stick(q, z, p, eps) <= delta);
        }
      }
}

TEST_CASE("local coin: the secret coin amplifies (60 messages at q = 0.1 cost less than without)") {
  privacy::RdpAccountant coin, plain;
  coin.compose(server::local_coin_event(0.1, 2.0), 60);
  plain.compose(privacy::DpEvent::gaussian(2.0), 60);
  const double with = coin.epsilon(1e-5).epsilon, without = plain.epsilon(1e-5).epsilon;
  INFO("coin " << with << " plain " << without);
  CHECK(with < 0.5 * without);
}

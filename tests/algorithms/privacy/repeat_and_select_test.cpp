// Papernot & Steinke 2022 private selection: the repetition distribution, the RDP of the best
// of K runs (Thms. 2 and 6) and its pure-DP limit, each against an independent computation.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/basic_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"
#include "algorithms/privacy/repetition.hpp"

using namespace fbosim::privacy;
using Catch::Matchers::Contains;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// P[K = k] of the truncated negative binomial by its defining product (Definition 1).
double tnb_pmf_by_product(double gamma, double eta, int k) {
  if (eta == 0) return std::pow(1 - gamma, k) / (k * std::log(1 / gamma));
  double prod = 1;
  for (int l = 0; l < k; ++l) prod *= (l + eta) / (l + 1);
  return std::pow(1 - gamma, k) * prod / (std::pow(gamma, -eta) - 1);
}

// The improved RDP conversion, written out: min over orders of
// rdp + log(1 - 1/a) - (log delta + log a) / (a - 1) (Canonne, Kamath, Steinke 2020, Prop. 12).
double epsilon_by_conversion(const std::vector<double>& orders, const std::vector<double>& rdp,
                             double delta) {
  double best = kInf;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i];
    best = std::min(best, rdp[i] + std::log(1 - 1 / a) - (std::log(delta) + std::log(a)) / (a - 1));
  }
  return std::max(best, 0.0);
}

// Laplace RDP by Mironov 2017, Prop. 6, in its plain form (moderate b and alpha only).
double laplace_rdp_plain(double b, double a) {
  return std::log(a / (2 * a - 1) * std::exp((a - 1) / b) +
                  (a - 1) / (2 * a - 1) * std::exp(-a / b)) /
         (a - 1);
}

}  // namespace

TEST_CASE("truncated negative binomial: pmf by the product, sums to 1, mean as asked") {
  for (double eta : {0.0, 0.5, 1.0, 2.0}) {
    for (double mean : {1.5, 10.0, 40.0}) {
      INFO("eta " << eta << " mean " << mean);
      const RepetitionDistribution k(mean, eta);
      double total = 0, first = 0;
      for (int j = 1; j < 20000; ++j) {
        const double p = k.pmf(j);
        CHECK(p == Approx(tnb_pmf_by_product(k.gamma(), eta, j)).epsilon(1e-9).margin(1e-300));
        total += p;
        first += j * p;
      }
      CHECK(k.pmf(0) == 0);
      CHECK(total == Approx(1).epsilon(1e-9));
      CHECK(first == Approx(k.exact_mean()).epsilon(1e-8));
      CHECK(k.exact_mean() >= mean);  // the conservative side of the bisection
      CHECK(k.exact_mean() == Approx(mean).epsilon(1e-10));
    }
  }
  // Geometric: gamma = 1 / mean exactly, P[K = k] = gamma (1 - gamma)^(k - 1).
  const RepetitionDistribution g(8, 1);
  CHECK(g.gamma() == 0.125);
  CHECK(g.pmf(3) == Approx(0.125 * 0.875 * 0.875).epsilon(1e-14));
}

TEST_CASE("repetition draws follow the pmf (Monte Carlo, fixed seed)") {
  for (double eta : {0.0, 1.0, 3.0, kInf}) {
    INFO("eta " << eta);
    const RepetitionDistribution k(6, eta);
    fbosim::core::RngStream rng(1234);
    const int n = 100000;
    std::map<long long, int> counts;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
      const long long v = k.sample(rng);
      ++counts[v];
      sum += static_cast<double>(v);
      sum2 += static_cast<double>(v) * static_cast<double>(v);
    }
    const double mean = sum / n, se = std::sqrt((sum2 / n - mean * mean) / n);
    CHECK(std::abs(mean - k.exact_mean()) < 4 * se);
    for (long long v : {0LL, 1LL, 2LL, 5LL}) {
      const double p = k.pmf(v), freq = static_cast<double>(counts[v]) / n;
      CHECK(std::abs(freq - p) < 4 * std::sqrt(p * (1 - p) / n) + 1e-12);
    }
  }
}

TEST_CASE("repeat-and-select RDP: Thm. 2 by hand on a two-order grid") {
  // Geometric, mean 10: gamma = 0.1, eta = 1. Orders {2, 4}, base RDP {0.1, 0.3}.
  // c = 2 min(0.5 * 0.1 + log 10 / 2, 0.75 * 0.3 + log 10 / 4);
  // out(2) = 0.1 + log 10 + c, out(4) = 0.3 + log(10) / 3 + c; then out(2) <- min(out(2), out(4)).
  const double l10 = std::log(10.0);
  const double c = 2 * std::min(0.05 + l10 / 2, 0.225 + l10 / 4);
  const double out4 = 0.3 + l10 / 3 + c, out2 = std::min(0.1 + l10 + c, out4);
  const auto r = RdpAccountant::repeat_and_select_rdp({2, 4}, {0.1, 0.3}, 10, 1);
  CHECK(r[0] == Approx(out2).epsilon(1e-12));
  CHECK(r[1] == Approx(out4).epsilon(1e-12));
}

TEST_CASE("repeat-and-select of a pure eps-DP base tends to (2 + eta) eps (the pure-DP limit)") {
  // At the single order 1e10 the RDP of a pure eps-DP mechanism is eps; Thm. 2 gives
  // eps + (1 + eta) eps + O(1e-10): Papernot & Steinke's pure-DP corollary.
  for (double eta : {0.0, 0.5, 1.0, 2.0})
    for (double mean : {2.0, 100.0}) {
      INFO("eta " << eta << " mean " << mean);
      const auto r = RdpAccountant::repeat_and_select_rdp({1e10}, {0.7}, mean, eta);
      CHECK(r[0] == Approx((2 + eta) * 0.7).epsilon(1e-7));
    }
  // The basic accountant states that limit as pure DP.
  BasicAccountant basic;
  basic.compose(DpEvent::repeat_and_select(DpEvent::laplace(0.5), 10, 1));  // eps 2, eta 1
  basic.compose(DpEvent::repeat_and_select(DpEvent::epsilon_delta(0.25, 0), 5, 0));
  CHECK(basic.epsilon(0).epsilon == Approx(3 * 2 + 2 * 0.25).epsilon(1e-14));
  CHECK_FALSE(basic.supports(DpEvent::repeat_and_select(DpEvent::laplace(1), 10, kInf)));
  CHECK_FALSE(basic.supports(DpEvent::repeat_and_select(DpEvent::epsilon_delta(1, 1e-6), 10, 1)));
}

TEST_CASE("repeat-and-select with Poisson repetitions: Thm. 6 by hand") {
  // orders {2, 3}, base RDP {0.2, 0.5}, mean 4. delta_hat at eps_hat = log(1 + 1/(a - 1)):
  // min over the grid of the two conversions (KL: sqrt(1 - e^-r); CKS Prop. 12 at a > 1.01).
  const std::vector<double> orders{2, 3}, rdp{0.2, 0.5};
  auto delta = [&](double eps) {
    double ld = 0;
    for (int i = 0; i < 2; ++i) {
      const double a = orders[i], r = rdp[i];
      ld = std::min({ld, 0.5 * std::log(1 - std::exp(-r)),
                     (a - 1) * (r - eps + std::log(1 - 1 / a)) - std::log(a)});
    }
    return std::exp(ld);
  };
  const auto r = RdpAccountant::repeat_and_select_rdp(orders, rdp, 4, kInf);
  for (int i = 0; i < 2; ++i) {
    const double a = orders[i];
    CHECK(r[i] == Approx(rdp[i] + 4 * delta(std::log(1 + 1 / (a - 1))) + std::log(4.0) / (a - 1))
                      .epsilon(1e-12));
  }
  CHECK(RdpAccountant::delta_of(orders, rdp, 0.3) == Approx(delta(0.3)).epsilon(1e-12));
}

TEST_CASE("delta_of never undercuts the exact Gaussian privacy profile") {
  // Gaussian mechanism, sensitivity 1, noise z: RDP a / (2 z^2); exact delta(eps) of Balle &
  // Wang 2018: Phi(1/(2z) - eps z) - e^eps Phi(-1/(2z) - eps z).
  const auto Phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  for (double z : {0.8, 2.0}) {
    std::vector<double> orders, rdp;
    for (double a = 1.05; a < 200; a *= 1.05) {
      orders.push_back(a);
      rdp.push_back(a / (2 * z * z));
    }
    for (double eps : {0.5, 1.0, 3.0}) {
      const double exact = Phi(0.5 / z - eps * z) - std::exp(eps) * Phi(-0.5 / z - eps * z);
      const double bound = RdpAccountant::delta_of(orders, rdp, eps);
      INFO("z " << z << " eps " << eps);
      CHECK(bound >= exact);
      CHECK(bound < 10 * exact + 1e-12);  // and not absurdly loose (RDP's conversion costs a few x)
    }
  }
}

TEST_CASE("the rdp accountant composes RepeatAndSelect(Laplace) as the curve it states") {
  const double b = 2, mean = 20, eta = 1;
  RdpAccountant acc;
  acc.compose(DpEvent::repeat_and_select(DpEvent::laplace(b), mean, eta), 2);
  // Independent: the base curve by Mironov's formula, Thm. 2 through the public helper (checked
  // by hand above), twice, and the conversion written out.
  const std::vector<double>& orders = RdpAccountant::orders();
  std::vector<double> base;
  for (double a : orders)
    base.push_back(a < 60 ? laplace_rdp_plain(b, a) : RdpAccountant::laplace_rdp(b, a));
  auto one = RdpAccountant::repeat_and_select_rdp(orders, base, mean, eta);
  for (double& x : one) x *= 2;
  CHECK(acc.epsilon(1e-6).epsilon ==
        Approx(epsilon_by_conversion(orders, one, 1e-6)).epsilon(1e-9));
  // Best of K costs more than one run and less than the pure-DP limit 2 x (2 + eta) / b.
  RdpAccountant single;
  single.compose(DpEvent::laplace(b), 2);
  CHECK(acc.epsilon(1e-6).epsilon > single.epsilon(1e-6).epsilon);
  CHECK(acc.epsilon(1e-6).epsilon < 2 * (2 + eta) / b + std::log(1e6) / (512 - 1) + 1);
}

TEST_CASE("RepeatAndSelect events validate, print, and only rdp and basic take them") {
  CHECK_THROWS_WITH(DpEvent::repeat_and_select(DpEvent::laplace(1), 1.0, 1),
                    Contains("mean") && Contains("> 1"));
  CHECK_THROWS_WITH(DpEvent::repeat_and_select(DpEvent::laplace(1), 0.5, kInf),
                    Contains("Poisson mean"));
  CHECK_THROWS_WITH(DpEvent::repeat_and_select(DpEvent::laplace(1), 5, -1), Contains("shape"));
  CHECK_THROWS_AS(RepetitionDistribution(5, std::nan("")), std::invalid_argument);
  const DpEvent e = DpEvent::repeat_and_select(DpEvent::laplace(0.5), 10, 1);
  CHECK(to_string(e) == "RepeatAndSelect(Laplace(b=0.5), mean=10, shape=1)");
  for (const char* name : {"moments", "pld", "gdp"})
    CHECK_FALSE(make_accountant(name)->supports(e));
  CHECK(make_accountant("rdp")->supports(e));
  CHECK(make_accountant("basic")->supports(e));
  CHECK_FALSE(make_accountant("rdp")->supports(
      DpEvent::repeat_and_select(DpEvent::epsilon_delta(1, 0), 10, 1)));
}

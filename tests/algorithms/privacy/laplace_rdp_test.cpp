#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/privacy/rdp_accountant.hpp"

using namespace fbosim::privacy;

namespace {

// Independent RDP of Laplace(0, b) against Laplace(1, b) from the definition,
// D_alpha = log(integral p^alpha q^(1 - alpha)) / (alpha - 1), by the trapezoid rule on a grid
// through the kinks at 0 and 1, in long double.
double integrated_laplace_rdp(double b, double alpha) {
  const long double h = 2e-4L, lo = -35.0L * b, hi = 1 + 35.0L * b;
  const auto f = [&](long double x) {
    const long double lp = -std::fabs(x) / b - std::log(2.0L * b);
    const long double lq = -std::fabs(x - 1) / b - std::log(2.0L * b);
    return std::exp(alpha * lp + (1 - alpha) * lq);
  };
  long double sum = 0.5L * (f(lo) + f(hi));
  const long n = std::lround((hi - lo) / h);
  for (long i = 1; i < n; ++i) sum += f(lo + i * h);
  return static_cast<double>(std::log(sum * h) / (alpha - 1));
}

}  // namespace

TEST_CASE("Laplace RDP matches the definition by quadrature (Mironov 2017, Prop. 6)") {
  for (double b : {0.5, 2.0})
    for (double alpha : {1.5, 3.0, 10.0}) {
      INFO("b " << b << " alpha " << alpha);
      CHECK(RdpAccountant::laplace_rdp(b, alpha) ==
            Approx(integrated_laplace_rdp(b, alpha)).epsilon(1e-6));
    }
}

TEST_CASE("Laplace RDP lies below the pure-DP epsilon 1/b and tends to it") {
  for (double b : {0.01, 0.5, 2.0}) {
    CHECK(RdpAccountant::laplace_rdp(b, 2) < 1 / b);
    CHECK(RdpAccountant::laplace_rdp(b, 1e6) == Approx(1 / b).epsilon(1e-3));
  }
  // Small b: e^{(alpha-1)/b} overflows a double, the log-space form does not.
  CHECK(std::isfinite(RdpAccountant::laplace_rdp(1e-3, 512)));
}

TEST_CASE("the rdp accountant composes Laplace releases") {
  RdpAccountant acc;
  acc.compose(DpEvent::laplace(2), 10);
  const double e = acc.epsilon(1e-5).epsilon;
  CHECK(std::isfinite(e));
  CHECK(e > 0);
  // Never above basic composition's 10 x 1/b by more than the conversion's log(1/delta) term
  // at the largest order (a sanity bound: RDP <= 1/b at every order).
  CHECK(e <= 10 * 0.5 + std::log(1e5) / (512 - 1) + 1e-12);
}

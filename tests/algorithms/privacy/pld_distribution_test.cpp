#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/privacy/pld_distribution.hpp"

using namespace fbosim::privacy;

namespace {
// Straightforward O(n m) convolution, the independent reference for the FFT.
std::vector<double> naive_convolution(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> c(a.size() + b.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  return c;
}
}  // namespace

TEST_CASE("pld pmf: delta(eps) and its inverse on a two-point PLD, by hand") {
  // Losses -1 and +1 (h = 1) with mass 1/2 each: delta(eps) = (1 - e^{eps - 1}) / 2 for eps < 1.
  PldPmf d;
  d.offset = -1;
  d.p = {0.5, 0.0, 0.5};
  CHECK(delta_for_epsilon(d, 1.0, 0.0) == Approx(0.5 * (1 - std::exp(-1.0))).epsilon(1e-14));
  CHECK(epsilon_for_delta(d, 1.0, 0.25) == Approx(1 + std::log(0.5)).epsilon(1e-14));
  CHECK(epsilon_for_delta(d, 1.0, 0.4) == 0.0);  // delta(0) = 0.316 <= 0.4
  // Mass at +infinity counts fully: with m_inf = 0.1 the curve is 0.1 + ...
  d.inf_mass = 0.1;
  d.p = {0.45, 0.0, 0.45};
  CHECK(epsilon_for_delta(d, 1.0, 0.2) == Approx(1 + std::log(1 - 0.1 / 0.45)).epsilon(1e-14));
  CHECK(std::isinf(epsilon_for_delta(d, 1.0, 0.05)));
}

TEST_CASE("pld pmf: epsilon_for_delta inverts delta_for_epsilon at large losses") {
  // A wide PLD far from 0 (losses 5000..5100): no overflow of e^{l}.
  PldPmf d;
  d.offset = 50000;
  d.p.assign(1001, 1.0 / 1001);
  for (double delta : {1e-1, 1e-3, 1e-6}) {
    const double eps = epsilon_for_delta(d, 0.1, delta);
    CHECK(eps > 5000);
    CHECK(delta_for_epsilon(d, 0.1, eps) == Approx(delta).epsilon(1e-9));
  }
}

TEST_CASE("pld pmf: FFT convolution equals the direct sum, offsets add, infinity masses combine") {
  PldPmf a, b;
  a.offset = -3;
  a.p = {0.1, 0.2, 0.3, 0.25};
  a.inf_mass = 0.15;
  b.offset = 7;
  b.p = {0.5, 0.0, 0.2, 0.1, 0.15, 0.05};
  const PldPmf c = convolve(a, b, Bound::upper);
  const std::vector<double> ref = naive_convolution(a.p, b.p);
  REQUIRE(c.p.size() == ref.size());
  CHECK(c.offset == 4);
  for (std::size_t i = 0; i < ref.size(); ++i) CHECK(c.p[i] == Approx(ref[i]).margin(1e-15));
  CHECK(c.inf_mass == Approx(1 - 0.85 * 1.0).epsilon(1e-15));
  // Self-composition by squaring equals repeated convolution.
  PldPmf r = a;
  for (int i = 1; i < 5; ++i) r = convolve(r, a, Bound::upper);
  const PldPmf s = self_compose(a, 5, Bound::upper);
  REQUIRE(s.p.size() == r.p.size());
  CHECK(s.offset == r.offset);
  for (std::size_t i = 0; i < s.p.size(); ++i) CHECK(s.p[i] == Approx(r.p[i]).margin(1e-14));
  CHECK(s.inf_mass == Approx(1 - std::pow(0.85, 5)).epsilon(1e-13));
}

TEST_CASE("pld pmf: truncation moves tails up for an upper bound and drops them for a lower one") {
  PldPmf d;
  d.offset = 0;
  d.p = {1e-17, 2e-17, 0.5, 0.5 - 6e-17, 3e-17};
  PldPmf up = d, low = d;
  truncate(up, Bound::upper, 1e-15);
  truncate(low, Bound::lower, 1e-15);
  CHECK(up.offset == 2);
  REQUIRE(up.p.size() == 2);
  CHECK(up.p[0] == 0.5 + 3e-17);
  CHECK(up.inf_mass == 3e-17);
  CHECK(low.offset == 2);
  CHECK(low.p[0] == 0.5);
  CHECK(low.inf_mass == 0.0);
  // delta only grows under the upper truncation and only shrinks under the lower one.
  for (double eps : {0.0, 1.0, 3.0}) {
    CHECK(delta_for_epsilon(up, 1.0, eps) >= delta_for_epsilon(d, 1.0, eps));
    CHECK(delta_for_epsilon(low, 1.0, eps) <= delta_for_epsilon(d, 1.0, eps));
  }
}

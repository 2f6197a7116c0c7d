#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/privacy/log_space.hpp"

using fbosim::privacy::kInf;
using fbosim::privacy::log_add;

TEST_CASE("log_add is log(e^a + e^b), also where e^a and e^b underflow") {
  // Against the direct sum in long double where it is representable (in double, the log of a
  // sum near 1 loses digits: log(1 + e^-5) = 0.0067 to 1e-14 only).
  for (double a : {-3.0, 0.0, 0.7, 20.0})
    for (double b : {-5.0, -0.2, 0.7, 15.0}) {
      const auto direct = static_cast<double>(
          std::log(std::exp(static_cast<long double>(a)) + std::exp(static_cast<long double>(b))));
      CHECK(log_add(a, b) == Approx(direct).epsilon(1e-15));
    }
  // Far below the smallest double: log(2 e^-1000) = -1000 + log 2.
  CHECK(log_add(-1000, -1000) == Approx(-1000 + std::log(2.0)).epsilon(1e-15));
  CHECK(log_add(-1000, -1001) == Approx(-1000 + std::log1p(std::exp(-1.0))).epsilon(1e-15));
  // -inf is log 0: the other term unchanged.
  CHECK(log_add(-kInf, 2.5) == 2.5);
  CHECK(log_add(-7.0, -kInf) == -7.0);
  CHECK(log_add(-kInf, -kInf) == -kInf);
}

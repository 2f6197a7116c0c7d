#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/privacy/log_space.hpp"

using fbosim::privacy::kInf;
using fbosim::privacy::log_add;

TEST_CASE("log_add is log(e^a + e^b), also where e^a and e^b underflow") {
  // Against the direct sum where it is representable.
  for (double a : {-3.0, 0.0, 0.7, 20.0})
    for (double b : {-5.0, -0.2, 0.7, 15.0})
      CHECK(log_add(a, b) == Approx(std::log(std::exp(a) + std::exp(b))).epsilon(1e-14));
  // Far below the smallest double: log(2 e^-1000) = -1000 + log 2.
  CHECK(log_add(-1000, -1000) == Approx(-1000 + std::log(2.0)).epsilon(1e-15));
  CHECK(log_add(-1000, -1001) == Approx(-1000 + std::log1p(std::exp(-1.0))).epsilon(1e-15));
  // -inf is log 0: the other term unchanged.
  CHECK(log_add(-kInf, 2.5) == 2.5);
  CHECK(log_add(-7.0, -kInf) == -7.0);
  CHECK(log_add(-kInf, -kInf) == -kInf);
}

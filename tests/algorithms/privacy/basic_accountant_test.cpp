#include <catch2/catch.hpp>

#include <stdexcept>

#include "algorithms/privacy/basic_accountant.hpp"

using namespace fbosim::privacy;
using Catch::Matchers::Contains;

TEST_CASE("basic composition sums epsilons and deltas (hand-computed)") {
  BasicAccountant acc;
  // 3 x Laplace(b = 2): 3 x 1/2 = 1.5; 2 x (0.1, 1e-6): 0.2 and 2e-6.
  acc.compose(DpEvent::laplace(2), 3);
  acc.compose(DpEvent::self_composed(DpEvent::epsilon_delta(0.1, 1e-6), 2));
  CHECK(acc.steps() == 5);
  CHECK(acc.epsilon_sum() == Approx(1.7).epsilon(1e-15));
  CHECK(acc.delta_sum() == 2e-6);
  CHECK(acc.epsilon(2e-6).epsilon == Approx(1.7).epsilon(1e-15));
  CHECK(acc.epsilon(0.5).epsilon == Approx(1.7).epsilon(1e-15));
  CHECK(acc.epsilon(2e-6).order == 0);
  // Below the composed delta: no answer, and the error says why.
  CHECK_THROWS_WITH(acc.epsilon(1e-6), Contains("delta") && Contains("2e-06"));
  CHECK_THROWS_AS(acc.epsilon(1e-6), std::domain_error);
  CHECK_THROWS_AS(acc.epsilon(1.0), std::invalid_argument);
}

TEST_CASE("basic: pure DP answers at delta = 0, nothing composed is 0") {
  BasicAccountant acc;
  CHECK(acc.epsilon(0).epsilon == 0);
  acc.compose(DpEvent::laplace(0.25));  // 1/b = 4
  CHECK(acc.epsilon(0).epsilon == 4);
}

TEST_CASE("basic refuses the Gaussian mechanism, naming it") {
  BasicAccountant acc;
  CHECK_FALSE(acc.supports(DpEvent::gaussian(1)));
  CHECK_FALSE(acc.supports(DpEvent::poisson_sampled(0.5, DpEvent::laplace(1))));
  CHECK_THROWS_WITH(acc.compose(DpEvent::composed({DpEvent::laplace(1), DpEvent::gaussian(1)})),
                    Contains("basic") && Contains("Gaussian(z=1)"));
  CHECK(acc.steps() == 0);
  CHECK(acc.epsilon_sum() == 0);
}

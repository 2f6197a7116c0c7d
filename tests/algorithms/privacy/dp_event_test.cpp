#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "algorithms/privacy/dp_event.hpp"

using namespace fbosim::privacy;
using Catch::Matchers::Contains;

TEST_CASE("sampling names round-trip and a bad name is quoted in the error") {
  for (const Sampling s : {Sampling::poisson, Sampling::fixed})
    CHECK(parse_sampling(to_string(s)) == s);
  CHECK(to_string(Sampling::poisson) == "poisson");
  CHECK(to_string(Sampling::fixed) == "fixed");
  CHECK_THROWS_WITH(parse_sampling("shuffle"), Contains("shuffle"));
}

TEST_CASE("events print as nested constructors") {
  const DpEvent g = DpEvent::gaussian(1);
  CHECK(to_string(DpEvent::poisson_sampled(0.25, g)) == "PoissonSampled(q=0.25, Gaussian(z=1))");
  CHECK(to_string(DpEvent::fixed_sampled(7, 29, g)) == "FixedSampled(m=7, N=29, Gaussian(z=1))");
  CHECK(to_string(DpEvent::self_composed(DpEvent::laplace(2.5), 40)) ==
        "SelfComposed(Laplace(b=2.5), k=40)");
  CHECK(to_string(DpEvent::composed(
            {DpEvent::noop(), DpEvent::non_private(), DpEvent::epsilon_delta(0.5, 1e-05)})) ==
        "Composed(NoOp, NonPrivate, EpsilonDelta(eps=0.5, delta=1e-05))");
  CHECK(to_string(DpEvent::composed({})) == "Composed()");
  CHECK(to_string(DpEvent()) == "NoOp");
}

TEST_CASE("equality compares whole trees by value") {
  const auto make = [](double z) {
    return DpEvent::composed(
        {DpEvent::self_composed(DpEvent::poisson_sampled(0.25, DpEvent::gaussian(z)), 3),
         DpEvent::laplace(1)});
  };
  CHECK(make(1.0) == make(1.0));  // distinct shared children, equal values
  CHECK_FALSE(make(1.0) == make(1.5));
  CHECK_FALSE(DpEvent::gaussian(1) == DpEvent::laplace(1));
  CHECK_FALSE(DpEvent::fixed_sampled(1, 2, DpEvent::gaussian(1)) ==
              DpEvent::fixed_sampled(1, 3, DpEvent::gaussian(1)));
  const DpEvent copy = make(1.0);
  CHECK(copy == make(1.0));
}

TEST_CASE("out-of-range parameters cannot be built, and the error names them") {
  CHECK_THROWS_WITH(DpEvent::gaussian(0), Contains("Gaussian") && Contains("z"));
  CHECK_THROWS_AS(DpEvent::gaussian(std::nan("")), std::invalid_argument);
  CHECK_THROWS_AS(DpEvent::gaussian(1.0 / 0.0), std::invalid_argument);
  CHECK_THROWS_WITH(DpEvent::laplace(-1), Contains("Laplace") && Contains("-1"));
  CHECK_THROWS_AS(DpEvent::epsilon_delta(-0.1, 0), std::invalid_argument);
  CHECK_THROWS_AS(DpEvent::epsilon_delta(1, 1), std::invalid_argument);
  CHECK_THROWS_WITH(DpEvent::poisson_sampled(1.5, DpEvent::gaussian(1)),
                    Contains("q") && Contains("1.5"));
  CHECK_THROWS_AS(DpEvent::poisson_sampled(0, DpEvent::gaussian(1)), std::invalid_argument);
  CHECK_THROWS_AS(DpEvent::fixed_sampled(0, 10, DpEvent::gaussian(1)), std::invalid_argument);
  CHECK_THROWS_AS(DpEvent::fixed_sampled(11, 10, DpEvent::gaussian(1)), std::invalid_argument);
  CHECK_THROWS_WITH(DpEvent::self_composed(DpEvent::gaussian(1), -2), Contains("-2"));
}

TEST_CASE("check_poisson_gaussian: 0 < q <= 1 and z > 0 finite, NaN rejected, the value named") {
  CHECK_NOTHROW(check_poisson_gaussian(1, 0.5));
  CHECK_NOTHROW(check_poisson_gaussian(1e-9, 1e3));
  CHECK_THROWS_WITH(check_poisson_gaussian(0, 1), Contains("sampling_rate q") && Contains("0"));
  CHECK_THROWS_WITH(check_poisson_gaussian(1.25, 1), Contains("1.25"));
  CHECK_THROWS_AS(check_poisson_gaussian(std::nan(""), 1), std::invalid_argument);
  CHECK_THROWS_WITH(check_poisson_gaussian(0.5, -2),
                    Contains("noise_multiplier z") && Contains("-2"));
  CHECK_THROWS_AS(check_poisson_gaussian(0.5, std::nan("")), std::invalid_argument);
  CHECK_THROWS_AS(check_poisson_gaussian(0.5, 1.0 / 0.0), std::invalid_argument);
}

TEST_CASE("the subsampled Gaussian release: Poisson, or a batch of floor(N q)") {
  CHECK(sampled_gaussian(Sampling::poisson, 0.3, 2, 0) ==
        DpEvent::poisson_sampled(0.3, DpEvent::gaussian(2)));
  // floor(29 * 0.25) = floor(7.25) = 7.
  CHECK(sampled_gaussian(Sampling::fixed, 0.25, 1, 29) ==
        DpEvent::fixed_sampled(7, 29, DpEvent::gaussian(1)));
  CHECK_THROWS_WITH(sampled_gaussian(Sampling::fixed, 0.05, 1, 10), Contains("floor(N q) = 0"));
  CHECK_THROWS_AS(sampled_gaussian(Sampling::fixed, 0.5, 1, 0), std::invalid_argument);
  CHECK(as_poisson_gaussian(DpEvent::gaussian(3))->q == 1.0);
  CHECK(as_poisson_gaussian(sampled_gaussian(Sampling::poisson, 0.3, 2, 0))->z == 2.0);
  CHECK_FALSE(as_poisson_gaussian(sampled_gaussian(Sampling::fixed, 0.25, 1, 29)));
  CHECK_FALSE(as_poisson_gaussian(DpEvent::poisson_sampled(0.5, DpEvent::laplace(1))));
}

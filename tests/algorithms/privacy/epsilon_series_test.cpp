#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/epsilon_series.hpp"

using namespace fbosim::privacy;

TEST_CASE("an epsilon series equals composing each count afresh, in any order") {
  const DpEvent event = DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1.0));
  const std::vector<int> steps = {60, 1, 40, 0, 40, 1000, 7};
  for (const char* name : {"moments", "rdp", "pld", "gdp"}) {
    INFO(name);
    const std::vector<EpsilonResult> series = epsilon_series(name, event, steps, 1e-5);
    REQUIRE(series.size() == steps.size());
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (steps[k] == 0) {
        CHECK(series[k].epsilon == 0.0);
        continue;
      }
      const auto fresh = make_accountant(name);
      fresh->compose(event, steps[k]);
      CHECK(series[k].epsilon == Approx(fresh->epsilon(1e-5).epsilon).epsilon(1e-9));
    }
  }
  // The paper's T = 40 value (moments, q = 0.25, z = 1, delta = 200^-1.1): 9.908479.
  const auto paper = epsilon_series("moments", event, {40}, std::pow(200.0, -1.1));
  CHECK(paper[0].epsilon == Approx(9.908479).margin(5e-6));
}

TEST_CASE("an epsilon series refuses what the accountant cannot answer") {
  const DpEvent event = DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1.0));
  CHECK_THROWS_WITH(epsilon_series("basic", event, {10}, 1e-5), Catch::Contains("basic"));
  CHECK_THROWS_WITH(epsilon_series("moments", event, {-1}, 1e-5), Catch::Contains("-1"));
  CHECK_THROWS(epsilon_series("nope", event, {1}, 1e-5));
}

TEST_CASE("step-count texts of the privacy command: a count, a list, a range with a stride") {
  CHECK(parse_steps("60") == std::vector<int>{60});
  CHECK(parse_steps("10,20,40") == std::vector<int>{10, 20, 40});
  CHECK(parse_steps("1:5") == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(parse_steps("0:10:5") == std::vector<int>{0, 5, 10});
  CHECK(parse_steps("1:1000").size() == 1000);
  CHECK(parse_steps("1:7:3,60") == std::vector<int>{1, 4, 7, 60});
  for (const char* bad : {"", "x", "-1", "1:0", "1:10:0", "1:2:3:4", "10,,20", "1e3", "5:"})
    CHECK_THROWS_WITH(parse_steps(bad), Catch::Contains(std::string("'") + bad + "'"));
  CHECK_THROWS_WITH(parse_steps("0:2000000000"), Catch::Contains("more than"));
}

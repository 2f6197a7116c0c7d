#include <catch2/catch.hpp>

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

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "core/rng.hpp"
#include "sim/timeline/device_tiers.hpp"

using namespace fbosim::timeline;
using Catch::Matchers::Contains;
using fbosim::core::RngFactory;

namespace {
std::vector<int> tiers_of(const DeviceTiers& t) {
  std::vector<int> out;
  for (int n = 0; n < t.agents(); ++n) out.push_back(t.tier(n));
  return out;
}
}  // namespace

TEST_CASE("device tiers: each tier holds its fraction of the agents, with its slowdown") {
  const TierSpec spec{{0.2, 0.1}, {10.0, 3.0}};
  const DeviceTiers t(spec, 1000, RngFactory(7, 0));
  int counts[3] = {0, 0, 0};
  for (int n = 0; n < 1000; ++n) {
    ++counts[t.tier(n)];
    const double expected[3] = {1.0, 10.0, 3.0};
    CHECK(t.slowdown(n) == expected[t.tier(n)]);
  }
  CHECK(counts[1] == 200);
  CHECK(counts[2] == 100);
  CHECK(counts[0] == 700);
  // Rounded by cumulative boundaries: 7 agents at 0.25 + 0.25 -> floor(1.75 + 0.5) = 2 then
  // floor(3.5 + 0.5) = 4, so 2 + 2.
  const DeviceTiers small(TierSpec{{0.25, 0.25}, {2.0, 4.0}}, 7, RngFactory(7, 0));
  const std::vector<int> s = tiers_of(small);
  CHECK(std::count(s.begin(), s.end(), 1) == 2);
  CHECK(std::count(s.begin(), s.end(), 2) == 2);
  // Without tiers every agent runs at speed 1.
  const DeviceTiers none(TierSpec{}, 5, RngFactory(7, 0));
  CHECK(tiers_of(none) == std::vector<int>(5, 0));
}

TEST_CASE("device tiers: chosen by the stream timing.tier, stable when an agent is added") {
  const TierSpec spec{{0.2}, {10.0}};
  const std::vector<int> a = tiers_of(DeviceTiers(spec, 1000, RngFactory(7, 0)));
  CHECK(a == tiers_of(DeviceTiers(spec, 1000, RngFactory(7, 0))));
  CHECK(a != tiers_of(DeviceTiers(spec, 1000, RngFactory(8, 0))));
  CHECK(a != tiers_of(DeviceTiers(spec, 1000, RngFactory(7, 1))));
  // 1001 agents still put 200 in the slow tier: at most one of the first 1000 changes tier
  // (the new agent may take the place of one), where a reshuffle would move about 320.
  const std::vector<int> b = tiers_of(DeviceTiers(spec, 1001, RngFactory(7, 0)));
  int changed = 0;
  for (int n = 0; n < 1000; ++n)
    changed += a[static_cast<std::size_t>(n)] != b[static_cast<std::size_t>(n)];
  CHECK(changed <= 1);
}

TEST_CASE("device tiers: bad specs are errors naming the key and the value") {
  const RngFactory rf(1, 0);
  CHECK_THROWS_WITH(DeviceTiers(TierSpec{{0.2}, {}}, 10, rf),
                    Contains("timing.tiers.slowdowns must have one slowdown per fraction"));
  CHECK_THROWS_WITH(DeviceTiers(TierSpec{{0.0}, {2.0}}, 10, rf),
                    "timing.tiers.fractions: each must be in (0, 1], got 0");
  CHECK_THROWS_WITH(DeviceTiers(TierSpec{{1.5}, {2.0}}, 10, rf), Contains("got 1.5"));
  CHECK_THROWS_WITH(DeviceTiers(TierSpec{{0.6, 0.5}, {2.0, 3.0}}, 10, rf),
                    Contains("must sum to at most 1, got 0.6, 0.5 (sum 1.1)"));
  CHECK_THROWS_WITH(DeviceTiers(TierSpec{{0.5}, {0.0}}, 10, rf),
                    "timing.tiers.slowdowns: each must be in (0, 1e+06], got 0");
}

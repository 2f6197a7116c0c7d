#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include <boost/random/seed_seq.hpp>

#include "core/rng.hpp"

using fbosim::core::RngFactory;
using fbosim::core::RngStream;

TEST_CASE("a stream is a pure function of (seed, run, purpose, index)") {
  const RngFactory a(7, 3), b(7, 3);
  RngStream s1 = a.stream("agent.step", 5, 2);
  RngStream s2 = b.stream("agent.step", 5, 2);
  for (int k = 0; k < 100; ++k) REQUIRE(s1.uniform() == s2.uniform());
}

TEST_CASE("different keys give different streams") {
  const RngFactory f(7, 3);
  const double base = f.stream("agent.step", 5, 2).uniform();
  CHECK(f.stream("agent.step", 5, 3).uniform() != base);
  CHECK(f.stream("agent.step", 6, 2).uniform() != base);
  CHECK(f.stream("agent.noise", 5, 2).uniform() != base);
  CHECK(RngFactory(8, 3).stream("agent.step", 5, 2).uniform() != base);
  CHECK(RngFactory(7, 4).stream("agent.step", 5, 2).uniform() != base);
  // (i, j) and (j, i) must not collide.
  CHECK(f.stream("x", 1, 2).uniform() != f.stream("x", 2, 1).uniform());
}

TEST_CASE("uniform and normal draws have the right first two moments") {
  RngStream s(123);
  const int n = 200000;
  double su = 0, su2 = 0, sn = 0, sn2 = 0;
  for (int k = 0; k < n; ++k) {
    const double u = s.uniform(), z = s.normal();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    su += u;
    su2 += u * u;
    sn += z;
    sn2 += z * z;
  }
  CHECK(su / n == Approx(0.5).margin(0.005));
  CHECK(su2 / n - std::pow(su / n, 2) == Approx(1.0 / 12).margin(0.002));
  CHECK(sn / n == Approx(0.0).margin(0.01));
  CHECK(sn2 / n == Approx(1.0).margin(0.01));
}

TEST_CASE("uniform_int covers its range uniformly") {
  RngStream s(5);
  int counts[7] = {0};
  for (int k = 0; k < 70000; ++k) ++counts[s.uniform_int(7)];
  for (int c : counts) CHECK(c == Approx(10000).margin(500));
}

TEST_CASE("shuffle is Fisher-Yates: each of the 3! orders equally often, the draws in one order") {
  RngStream s(11);
  std::map<std::vector<int>, int> counts;
  for (int k = 0; k < 60000; ++k) {
    std::vector<int> v{0, 1, 2};
    fbosim::core::shuffle(v, s);
    ++counts[v];
  }
  REQUIRE(counts.size() == 6);
  for (const auto& [order, c] : counts) CHECK(c == Approx(10000).margin(400));  // 4 s.d.
  // The draw order: uniform_int(n), then uniform_int(n - 1), ..., each swapped into the back.
  RngStream a(3), b(3);
  std::vector<int> v{0, 1, 2, 3, 4};
  fbosim::core::shuffle(v, a);
  std::vector<int> w{0, 1, 2, 3, 4};
  for (std::uint64_t n = 5; n > 1; --n) std::swap(w[n - 1], w[b.uniform_int(n)]);
  CHECK(v == w);
  std::vector<int> empty;
  fbosim::core::shuffle(empty, a);  // no draw, no crash
  CHECK(empty.empty());
}

TEST_CASE("a stream's engine is the one boost's seed_seq gives for its key words") {
  // The independent computation: boost::random::seed_seq over (key, mix64(key)) as 32-bit
  // words, the seeding RngStream had before its own generate() replaced it.
  const auto reference = [](std::uint64_t key) {
    const std::uint32_t words[4] = {static_cast<std::uint32_t>(key),
                                    static_cast<std::uint32_t>(key >> 32),
                                    static_cast<std::uint32_t>(fbosim::core::mix64(key)),
                                    static_cast<std::uint32_t>(fbosim::core::mix64(key) >> 32)};
    boost::random::seed_seq seq(std::begin(words), std::end(words));
    return boost::random::mt19937_64(seq);
  };
  std::uint64_t key = 0;
  for (int k = 0; k < 300; ++k) {
    key = k < 3 ? static_cast<std::uint64_t>(k)
                : fbosim::core::mix64(key + static_cast<std::uint64_t>(k));
    if (k == 3) key = std::numeric_limits<std::uint64_t>::max();
    RngStream s(key);
    boost::random::mt19937_64 ref = reference(key);
    INFO("key " << key);
    REQUIRE(s.engine() == ref);
    for (int d = 0; d < 700; ++d) REQUIRE(s.engine()() == ref());  // past the first twist
  }
}

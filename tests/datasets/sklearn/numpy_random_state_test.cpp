#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>

#include "datasets/sklearn/numpy_random_state.hpp"
#include "datasets/sklearn/stratified_split.hpp"

using namespace fbosim::datasets;

// The comparisons with numpy and scikit-learn themselves are tests/tools/sklearn_reference.py
// (CTest "tools: numpy RandomState port ..." and "tools: the authors' landmine split ...");
// these need neither.

TEST_CASE("an int seed is init_genrand: the outputs of the standard library's mt19937") {
  for (std::uint32_t seed : {0U, 1U, 42U, 5489U, 4294967295U}) {
    NumpyRandomState ours(seed);
    std::mt19937 reference(seed);  // [rand.eng.mers]: the same seeding and tempering
    for (int k = 0; k < 2000; ++k) REQUIRE(ours.next_uint32() == reference());
  }
  // [rand.predef]: the 10000th output of a default-constructed mt19937 (seed 5489).
  NumpyRandomState s(5489);
  for (int k = 1; k < 10000; ++k) s.next_uint32();
  CHECK(s.next_uint32() == 4123659995U);
}

TEST_CASE("an array seed is init_by_array: the reference outputs of mt19937ar.c") {
  // mt19937ar.out (Matsumoto & Nishimura), init_by_array({0x123, 0x234, 0x345, 0x456}).
  NumpyRandomState s = NumpyRandomState::from_array({0x123, 0x234, 0x345, 0x456});
  for (std::uint32_t expected : {1067595299U, 955945823U, 477289528U, 4107218783U, 4228976476U})
    CHECK(s.next_uint32() == expected);
  CHECK_THROWS_AS(NumpyRandomState::from_array({}), std::invalid_argument);
}

TEST_CASE("bounded draws stay in range, use masked rejection, and cover the range") {
  NumpyRandomState s(7);
  std::vector<int> seen(11, 0);
  for (int k = 0; k < 2000; ++k) {
    const std::int64_t v = s.randint(-5, 6);
    REQUIRE(v >= -5);
    REQUIRE(v <= 5);
    ++seen[static_cast<std::size_t>(v + 5)];
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c > 100; }));
  CHECK(s.randint(3, 4) == 3);  // a one-value range draws nothing
  // Masked rejection: randint(0, 5) keeps the low 3 bits of each output, rejecting 5, 6, 7.
  NumpyRandomState a(11), b(11);
  for (int k = 0; k < 200; ++k) {
    std::uint32_t bits;
    while ((bits = b.next_uint32() & 7U) > 4U) {
    }
    REQUIRE(a.randint(0, 5) == bits);
  }
  // A range over 2^32 takes two outputs per candidate, high word first.
  NumpyRandomState c(3), d(3);
  const std::int64_t big = c.randint(0, std::int64_t{1} << 40);
  // rng = 2^40 - 1 is its own mask: no candidate is rejected.
  CHECK(static_cast<std::uint64_t>(big) == (d.next_uint64() & ((std::uint64_t{1} << 40) - 1)));
  CHECK_THROWS_AS(c.randint(2, 2), std::invalid_argument);
}

TEST_CASE("permutation is a Fisher-Yates shuffle from the last element down") {
  NumpyRandomState a(5), b(5);
  const std::vector<std::int64_t> p = a.permutation(50);
  std::vector<std::int64_t> sorted = p, expect(50);
  std::iota(expect.begin(), expect.end(), 0);
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == expect);
  for (std::size_t i = 50; i-- > 1;) std::swap(expect[i], expect[b.random_interval(i)]);
  CHECK(p == expect);
  // 0 and 1 elements draw nothing.
  NumpyRandomState c(9), d(9);
  CHECK(c.permutation(0).empty());
  CHECK(c.permutation(1) == std::vector<std::int64_t>{0});
  CHECK(c.next_uint32() == d.next_uint32());
  CHECK_THROWS_AS(c.choice_without_replacement(std::vector<int>{1, 2}, 3), std::invalid_argument);
}

TEST_CASE("approximate_mode: the examples of scikit-learn's docstring") {
  // sklearn.utils._approximate_mode's documented outputs (scikit-learn 1.2.1).
  NumpyRandomState r0(0);
  CHECK(approximate_mode({4, 2}, 3, r0) == std::vector<std::int64_t>{2, 1});
  NumpyRandomState r1(0);
  CHECK(approximate_mode({5, 2}, 4, r1) == std::vector<std::int64_t>{3, 1});
  NumpyRandomState r2(0);
  CHECK(approximate_mode({2, 2, 2, 1}, 2, r2) == std::vector<std::int64_t>{0, 1, 1, 0});
  NumpyRandomState r3(42);
  CHECK(approximate_mode({2, 2, 2, 1}, 2, r3) == std::vector<std::int64_t>{1, 1, 0, 0});
}

TEST_CASE("the stratified split keeps every row once, in class proportions") {
  std::vector<int> y(101, 0);
  for (int r = 0; r < 101; r += 9) y[static_cast<std::size_t>(r)] = 1;  // 12 of class 1
  const TrainTestIndices s = stratified_train_test_split(y, 0.5, 0);
  CHECK(s.test.size() == 51);  // ceil(0.5 * 101)
  CHECK(s.train.size() == 50);
  std::vector<int> all = s.train;
  all.insert(all.end(), s.test.begin(), s.test.end());
  std::sort(all.begin(), all.end());
  std::vector<int> rows(101);
  std::iota(rows.begin(), rows.end(), 0);
  CHECK(all == rows);
  int ones = 0;
  for (int r : s.train) ones += y[static_cast<std::size_t>(r)];
  CHECK(ones == 6);
  CHECK(stratified_train_test_split(y, 0.5, 0).train == s.train);
  CHECK(stratified_train_test_split(y, 0.5, 1).train != s.train);
  CHECK_THROWS_AS(stratified_train_test_split(y, 1.0, 0), std::invalid_argument);
  CHECK_THROWS_AS(stratified_train_test_split({0, 0, 0, 1}, 0.5, 0), std::invalid_argument);
}

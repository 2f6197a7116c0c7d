// ObjectiveFamily::records of the two landmine families: field n's training-half rows, the data
// that agent n's SVM or logistic regression trains on in every evaluation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "datasets/landmine/landmine_logistic.hpp"
#include "datasets/landmine/landmine_objective.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim::datasets;

namespace {

const std::string kMat = fbosim::testing::data_path("landmine/LandmineData.mat");

// Rows and mines of each of the 29 fields of LandmineData.mat, counted in the raw file by a
// separate MAT-file reader (Python's struct and zlib, not matio): 14,820 rows in all.
struct FieldCount {
  std::int64_t rows, mines;
};
constexpr FieldCount kFields[29] = {
    {690, 40}, {690, 48}, {689, 39}, {508, 19}, {509, 22}, {509, 29}, {510, 29}, {511, 26},
    {508, 31}, {509, 15}, {689, 38}, {688, 35}, {508, 27}, {510, 31}, {507, 17}, {445, 32},
    {449, 27}, {448, 31}, {449, 30}, {449, 37}, {451, 33}, {454, 39}, {447, 17}, {449, 41},
    {445, 31}, {448, 36}, {448, 36}, {454, 26}, {449, 42}};

// The training half's size by each split's rule (landmine_split.hpp): seeded, half of each
// class rounded down; authors, scikit-learn's train_test_split(test_size=0.5), which tests
// ceil(n / 2) rows and trains on the rest.
std::int64_t expected_training_rows(const FieldCount& f, LandmineSplitKind kind) {
  if (kind == LandmineSplitKind::seeded) return (f.rows - f.mines) / 2 + f.mines / 2;
  return f.rows - (f.rows + 1) / 2;
}

template <class Family>
void check_records(const Family& family, LandmineSplitKind kind) {
  REQUIRE(family.max_agents() == 29);
  const std::vector<std::int64_t> r = family.records(29);
  REQUIRE(r.size() == 29);
  std::int64_t total = 0;
  for (std::size_t n = 0; n < 29; ++n) {
    INFO("field " << n + 1);
    CHECK(r[n] == expected_training_rows(kFields[n], kind));
    CHECK(r[n] > 0);
    total += kFields[n].rows;
  }
  CHECK(total == 14820);
  // The first k agents' records are the first k of all of them, in make()'s agent order.
  for (int k : {1, 3, 28})
    CHECK(family.records(k) == std::vector<std::int64_t>(r.begin(), r.begin() + k));
  // The fields differ in size (the point of a duration that grows with the records).
  CHECK(std::set<std::int64_t>(r.begin(), r.end()).size() >= 10);
  CHECK(*std::min_element(r.begin(), r.end()) == 222);
  CHECK(*std::max_element(r.begin(), r.end()) == 345);
  CHECK_THROWS_WITH(family.records(30), Catch::Contains("29") && Catch::Contains("got 30"));
  CHECK_THROWS_AS(family.records(0), std::invalid_argument);
  CHECK_THROWS_AS(family.records(-1), std::invalid_argument);
}

}  // namespace

TEST_CASE("landmine records: each field's training half, by the split's rule, in field order") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  for (LandmineSplitKind kind : {LandmineSplitKind::seeded, LandmineSplitKind::authors}) {
    INFO("objective.split " << to_string(kind));
    LandmineSpec spec;
    spec.path = kMat;
    spec.split = kind;
    check_records(LandmineFamily(spec), kind);
  }
}

TEST_CASE("landmine_logistic records: each field's training half, as the SVM family's") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  for (LandmineSplitKind kind : {LandmineSplitKind::seeded, LandmineSplitKind::authors}) {
    INFO("objective.split " << to_string(kind));
    LandmineLogisticSpec spec;
    spec.data.path = kMat;
    spec.data.split = kind;
    check_records(LandmineLogisticFamily(spec), kind);
  }
}

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "datasets/activity/subject_data.hpp"
#include "har_fixture.hpp"

using fbosim::datasets::HarData;
using fbosim::datasets::SubjectData;

namespace {

// Subjects 4 and 9; feature 0 holds the row index so that rows can be traced through the
// split; feature 1 is constant; class counts of subject 4: 7, 4, 3, 1, 0, 6 (21 rows).
HarData data() {
  HarData d;
  const int counts4[6] = {7, 4, 3, 1, 0, 6};
  std::vector<std::pair<int, int>> rows;  // (subject, label 0..5)
  for (int k = 0; k < 6; ++k)
    for (int i = 0; i < counts4[k]; ++i) rows.push_back({4, k});
  for (int i = 0; i < 12; ++i) rows.push_back({9, i % 6});
  std::rotate(rows.begin(), rows.begin() + 5, rows.end());  // interleave a little
  const auto n = static_cast<Eigen::Index>(rows.size());
  fbosim::core::RngStream rng(42);
  d.features = rng.normal_matrix(n, HarData::kFeatures) * 3.0;
  d.features.array() += 1.5;
  d.labels.resize(n);
  d.subjects.resize(n);
  for (Eigen::Index r = 0; r < n; ++r) {
    d.subjects[r] = rows[static_cast<std::size_t>(r)].first;
    d.labels[r] = rows[static_cast<std::size_t>(r)].second;
    d.features(r, 0) = static_cast<double>(r);
    d.features(r, 1) = -0.25;
  }
  return d;
}

// Raw row index of each standardised row (feature 0 un-standardised).
std::vector<Eigen::Index> row_ids(const SubjectData& s, const Eigen::MatrixXf& x) {
  std::vector<Eigen::Index> ids;
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    ids.push_back(std::lround(x(i, 0) * s.scale[0] + s.mean[0]));
  return ids;
}

}  // namespace

TEST_CASE("subject split: 50/50, stratified, disjoint, covering the subject's rows") {
  const HarData d = data();
  const SubjectData s = SubjectData::split(d, 4, 0);
  CHECK(s.subject == 4);
  REQUIRE(s.train_x.rows() == 10);  // floor(21 / 2)
  REQUIRE(s.val_x.rows() == 11);
  const auto train = row_ids(s, s.train_x), val = row_ids(s, s.val_x);
  std::set<Eigen::Index> all(train.begin(), train.end());
  all.insert(val.begin(), val.end());
  CHECK(all.size() == 21);  // disjoint and complete
  for (Eigen::Index r : all) CHECK(d.subjects[r] == 4);
  int per_class[6] = {0, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < train.size(); ++i) {
    CHECK(s.train_y[static_cast<Eigen::Index>(i)] == d.labels[train[i]]);
    ++per_class[d.labels[train[i]]];
  }
  for (std::size_t i = 0; i < val.size(); ++i)
    CHECK(s.val_y[static_cast<Eigen::Index>(i)] == d.labels[val[i]]);
  // Counts 7, 4, 3, 1, 0, 6: floor halves 3, 2, 1, 0, 0, 3 = 9, plus one of the three odd
  // classes (0, 2, 3) to reach 10.
  const int floor_half[6] = {3, 2, 1, 0, 0, 3};
  int extra = 0;
  for (int k = 0; k < 6; ++k) {
    CHECK(per_class[k] - floor_half[k] >= 0);
    CHECK(per_class[k] - floor_half[k] <= 1);
    extra += per_class[k] - floor_half[k];
  }
  CHECK(extra == 1);
  CHECK(std::is_sorted(train.begin(), train.end()));  // file order inside each half
}

TEST_CASE("subject split: fixed by split_seed, different for another seed") {
  const HarData d = data();
  const SubjectData a = SubjectData::split(d, 4, 0), b = SubjectData::split(d, 4, 0);
  CHECK(a.train_x == b.train_x);
  CHECK(a.val_x == b.val_x);
  bool differs = false;
  for (std::uint64_t seed = 1; seed <= 3 && !differs; ++seed)
    differs = row_ids(a, a.train_x) != row_ids(a, SubjectData::split(d, 4, seed).train_x);
  CHECK(differs);
}

TEST_CASE("subject split: standardised with the training half's mean and sd only") {
  HarData d = data();
  const SubjectData s = SubjectData::split(d, 9, 7);
  const auto train = row_ids(s, s.train_x), val = row_ids(s, s.val_x);
  // Independent statistics of the raw training rows (population sd).
  for (int j : {2, 100, 560}) {
    long double sum = 0, sq = 0;
    for (Eigen::Index r : train) sum += d.features(r, j);
    const long double mean = sum / train.size();
    for (Eigen::Index r : train) sq += (d.features(r, j) - mean) * (d.features(r, j) - mean);
    const double sd = static_cast<double>(std::sqrt(sq / train.size()));
    CHECK(s.mean[j] == Approx(static_cast<double>(mean)).epsilon(1e-12));
    CHECK(s.scale[j] == Approx(sd).epsilon(1e-12));
    for (std::size_t i = 0; i < val.size(); ++i)
      CHECK(s.val_x(static_cast<Eigen::Index>(i), j) ==
            Approx((d.features(val[i], j) - mean) / sd).epsilon(1e-6).margin(1e-6));
    CHECK(s.train_x.col(j).cast<double>().mean() == Approx(0).margin(1e-6));
    CHECK(s.train_x.col(j).cast<double>().squaredNorm() / train.size() == Approx(1).epsilon(1e-5));
  }
  // A constant feature: sd 0, centred and left unscaled.
  CHECK(s.scale[1] == 1.0);
  CHECK(s.train_x.col(1).cwiseAbs().maxCoeff() == 0.0f);
  // Moving the validation rows far away changes neither the statistics nor the training half.
  for (Eigen::Index r : val) d.features.row(r).tail(559).array() += 1000.0;
  const SubjectData moved = SubjectData::split(d, 9, 7);
  CHECK(moved.mean == s.mean);
  CHECK(moved.scale == s.scale);
  CHECK(moved.train_x == s.train_x);
  CHECK(moved.val_x(0, 5) > 100.0f);
}

TEST_CASE("subject split: fewer than two rows is an error naming the subject") {
  HarData d = data();
  d.subjects[0] = 30;
  CHECK_THROWS_WITH(SubjectData::split(d, 30, 0), Catch::Matchers::Contains("subject 30"));
}

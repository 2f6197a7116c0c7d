#include "datasets/landmine/landmine_split.hpp"

#include <algorithm>
#include <stdexcept>

#include "datasets/sklearn/stratified_split.hpp"
#include "core/rng.hpp"

namespace fbosim::datasets {

namespace {

LandmineSplit take(const LandmineField& field, const std::vector<int>& train,
                   const std::vector<int>& valid) {
  LandmineSplit s;
  s.train_x = field.x(train, Eigen::all);
  s.valid_x = field.x(valid, Eigen::all);
  for (int r : train) s.train_y.push_back(field.y[static_cast<std::size_t>(r)]);
  for (int r : valid) s.valid_y.push_back(field.y[static_cast<std::size_t>(r)]);
  s.distances = std::make_shared<const RbfDistances>(s.train_x, s.valid_x);
  return s;
}

}  // namespace

LandmineSplitKind parse_landmine_split(const std::string& s) {
  return kLandmineSplitNames.parse(s);
}

std::string to_string(LandmineSplitKind k) { return kLandmineSplitNames.name(k); }

LandmineSplit split_field(const LandmineField& field, std::uint64_t seed, int field_index) {
  core::RngStream rng = core::RngFactory(seed, 0).stream("landmine.split", field_index);
  std::vector<int> train, valid;
  for (int label : {0, 1}) {
    std::vector<int> rows;
    for (std::size_t r = 0; r < field.y.size(); ++r)
      if (field.y[r] == label) rows.push_back(static_cast<int>(r));
    core::shuffle(rows, rng);
    const std::size_t half = rows.size() / 2;
    train.insert(train.end(), rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(half));
    valid.insert(valid.end(), rows.begin() + static_cast<std::ptrdiff_t>(half), rows.end());
  }
  std::sort(train.begin(), train.end());
  std::sort(valid.begin(), valid.end());
  return take(field, train, valid);
}

LandmineSplit authors_split(const LandmineField& field) {
  // test_size = 0.5, random_state = 0 [code: FTS preprocess_landmine.py, DP-FTS-DE preprocess.py]
  const TrainTestIndices t = stratified_train_test_split(field.y, 0.5, 0);
  return take(field, t.train, t.test);
}

}  // namespace fbosim::datasets

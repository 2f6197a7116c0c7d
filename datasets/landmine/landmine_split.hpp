#pragma once
// Each landmine field's 50/50 training / validation split (objective.split).
//   seeded   [choice] per class, a uniformly random half (rounded down) of its rows goes to
//            training, from the stream (split_seed, "landmine.split", field); rows in file order.
//   authors  the split of the papers' authors: scikit-learn's
//            train_test_split(X, y, test_size=0.5, stratify=y, random_state=0) per field
//            (FTS code, preprocess_landmine.py; DP-FTS-DE code, preprocess.py, the same call),
//            rows in the order scikit-learn returns them, as the authors keep them: libsvm's
//            solver and the cross-validation folds see that order.
// Either way the same split serves every run and every algorithm.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "datasets/landmine/landmine_data.hpp"
#include "datasets/landmine/rbf_distances.hpp"
#include "schema/enum_names.hpp"

namespace fbosim::datasets {

enum class LandmineSplitKind { seeded, authors };
/// objective.split's names.
inline constexpr schema::EnumNames<LandmineSplitKind> kLandmineSplitNames{
    {LandmineSplitKind::seeded, "seeded"}, {LandmineSplitKind::authors, "authors"}};
LandmineSplitKind parse_landmine_split(const std::string& s);  ///< throws invalid_argument
std::string to_string(LandmineSplitKind k);

struct LandmineSplit {
  Eigen::MatrixXd train_x, valid_x;
  std::vector<int> train_y, valid_y;
  /// The kernels' gamma-free distances of these points, computed once by split_field and
  /// authors_split (a split built otherwise has none: its evaluations compute them each time).
  std::shared_ptr<const RbfDistances> distances;
};

/// The seeded split of field `field_index` (rows of each half in file order).
LandmineSplit split_field(const LandmineField& field, std::uint64_t seed, int field_index);
/// The authors' split (datasets/sklearn/stratified_split.hpp), rows in scikit-learn's order.
LandmineSplit authors_split(const LandmineField& field);

}  // namespace fbosim::datasets

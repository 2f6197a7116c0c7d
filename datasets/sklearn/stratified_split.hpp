#pragma once
// scikit-learn's stratified train/test split, reproduced row for row: what
// sklearn.model_selection.train_test_split(X, y, test_size=t, stratify=y, random_state=seed)
// returns in scikit-learn 1.2.1 (Debian 12's python3-sklearn; the code is unchanged from 0.22
// to 1.3): the first split of StratifiedShuffleSplit(test_size=ceil(t n), train_size=n - that).
// The FTS and DP-FTS-DE authors split each landmine field this way with test_size = 0.5 and
// random_state = 0 (preprocess_landmine.py in their FTS code, preprocess.py in their DP-FTS-DE
// code) and keep the rows in the returned order. Tested against python3-sklearn on every field
// (tests/tools/sklearn_reference.py).
#include <cstdint>
#include <vector>

#include "datasets/sklearn/numpy_random_state.hpp"

namespace fbosim::datasets {

/// Row indices (0-based) of the two halves, in the order scikit-learn returns them.
struct TrainTestIndices {
  std::vector<int> train, test;
};

/// train_test_split(arange(n), labels, test_size=test_size, stratify=labels,
/// random_state=seed): classes are the sorted distinct labels. Throws std::invalid_argument
/// where scikit-learn raises ValueError: test_size outside (0, 1), a class with fewer than 2
/// rows, fewer training or test rows than classes.
TrainTestIndices stratified_train_test_split(const std::vector<int>& labels, double test_size,
                                             std::uint32_t seed);

/// scikit-learn's _approximate_mode(class_counts, n_draws, rng): rows drawn per class, the
/// floor of each class's share of n_draws, the rest given to the largest remainders, ties
/// broken by rng.choice (which draws even when every tied class gets one).
std::vector<std::int64_t> approximate_mode(const std::vector<std::int64_t>& class_counts,
                                           std::int64_t n_draws, NumpyRandomState& rng);

}  // namespace fbosim::datasets

#include "datasets/sklearn/stratified_split.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::datasets {

std::vector<std::int64_t> approximate_mode(const std::vector<std::int64_t>& class_counts,
                                           std::int64_t n_draws, NumpyRandomState& rng) {
  std::int64_t total = 0;
  for (std::int64_t c : class_counts) total += c;
  const std::size_t k = class_counts.size();
  // continuous = class_counts / class_counts.sum() * n_draws, in doubles as numpy computes it.
  std::vector<double> continuous(k), floored(k);
  double floored_sum = 0;  // integer-valued doubles: exact in any summation order
  for (std::size_t i = 0; i < k; ++i) {
    continuous[i] = static_cast<double>(class_counts[i]) / static_cast<double>(total) *
                    static_cast<double>(n_draws);
    floored[i] = std::floor(continuous[i]);
    floored_sum += floored[i];
  }
  auto need_to_add = static_cast<std::int64_t>(static_cast<double>(n_draws) - floored_sum);
  if (need_to_add > 0) {
    std::vector<double> remainder(k);
    for (std::size_t i = 0; i < k; ++i) remainder[i] = continuous[i] - floored[i];
    std::vector<double> values = remainder;  // np.sort(np.unique(remainder))[::-1]
    std::sort(values.begin(), values.end(), std::greater<>());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    for (double value : values) {
      std::vector<std::size_t> inds;
      for (std::size_t i = 0; i < k; ++i)
        if (remainder[i] == value) inds.push_back(i);
      const auto add_now =
          std::min<std::int64_t>(static_cast<std::int64_t>(inds.size()), need_to_add);
      for (std::size_t i : rng.choice_without_replacement(inds, static_cast<std::size_t>(add_now)))
        floored[i] += 1;
      need_to_add -= add_now;
      if (need_to_add == 0) break;
    }
  }
  std::vector<std::int64_t> out(k);
  for (std::size_t i = 0; i < k; ++i) out[i] = static_cast<std::int64_t>(floored[i]);
  return out;
}

TrainTestIndices stratified_train_test_split(const std::vector<int>& labels, double test_size,
                                             std::uint32_t seed) {
  if (!(test_size > 0 && test_size < 1))
    throw std::invalid_argument(
        fmt::format("stratified split: test_size must be in (0, 1), got {}", test_size));
  const auto n = static_cast<std::int64_t>(labels.size());
  // _validate_shuffle_split: n_test = ceil(test_size * n), n_train = n - n_test.
  const auto n_test = static_cast<std::int64_t>(std::ceil(test_size * static_cast<double>(n)));
  const std::int64_t n_train = n - n_test;
  // np.unique(y, return_inverse=True): the sorted classes; each class's rows in increasing
  // order (np.argsort(y_indices, kind="mergesort") is stable).
  std::vector<int> classes = labels;
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  std::vector<std::vector<int>> class_rows(classes.size());
  for (std::size_t r = 0; r < labels.size(); ++r) {
    const auto c = std::lower_bound(classes.begin(), classes.end(), labels[r]) - classes.begin();
    class_rows[static_cast<std::size_t>(c)].push_back(static_cast<int>(r));
  }
  std::vector<std::int64_t> counts;
  for (const auto& rows : class_rows) counts.push_back(static_cast<std::int64_t>(rows.size()));
  const auto n_classes = static_cast<std::int64_t>(classes.size());
  if (*std::min_element(counts.begin(), counts.end()) < 2)
    throw std::invalid_argument("stratified split: the least populated class has only 1 row");
  if (n_train < n_classes || n_test < n_classes)
    throw std::invalid_argument(
        fmt::format("stratified split: {} training and {} test rows, fewer than the {} classes",
                    n_train, n_test, n_classes));

  NumpyRandomState rng(seed);
  const std::vector<std::int64_t> n_i = approximate_mode(counts, n_train, rng);
  std::vector<std::int64_t> remaining(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) remaining[i] = counts[i] - n_i[i];
  const std::vector<std::int64_t> t_i = approximate_mode(remaining, n_test, rng);
  TrainTestIndices out;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::vector<std::int64_t> perm = rng.permutation(counts[i]);
    for (std::int64_t k = 0; k < n_i[i] + t_i[i]; ++k) {
      const int row = class_rows[i][static_cast<std::size_t>(perm[static_cast<std::size_t>(k)])];
      (k < n_i[i] ? out.train : out.test).push_back(row);
    }
  }
  out.train = rng.permutation(std::move(out.train));
  out.test = rng.permutation(std::move(out.test));
  return out;
}

}  // namespace fbosim::datasets

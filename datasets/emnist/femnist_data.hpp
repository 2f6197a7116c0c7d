#pragma once
// Per-writer FEMNIST digits (LEAF; ../shared/datasets/femnist_digits/SOURCE.md): MNIST IDX
// files plus CSVs mapping every image to its writer. Pixels are inverted (LEAF stores 255 for
// the white background) so that ink = 1, and scaled to [0, 1].
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets {

struct WriterDigits {
  std::string writer;
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  /// n x 784 row-major images (28 x 28), ink = 1.
  Matrix train_x, test_x;
  std::vector<int> train_y, test_y;  ///< digits 0..9
};

/// The writers of `dir` that have both training and test digits, in writers.csv order; throws
/// std::runtime_error naming the file for missing or inconsistent files.
std::vector<WriterDigits> load_femnist_digits(const std::string& dir);

}  // namespace fbosim::datasets

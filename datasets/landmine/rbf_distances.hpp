#pragma once
// The parts of a landmine split's RBF kernels that do not depend on gamma, computed once per
// field instead of once per evaluation: K(x, z) = exp(-gamma d(x, z)) with d in the two forms
// libsvm (Chang & Lin 2011, the library scikit-learn's SVC wraps) evaluates, each summed in
// feature order so that exp(-gamma d) is libsvm's kernel value bit for bit:
//   training pairs, as its Kernel::kernel_rbf builds the Q matrix of a training:
//       d = (|x_r|^2 + |x_c|^2) - 2 x_r.x_c   (the squares and the dot product summed in order)
//   a point against a support vector, as its Kernel::k_function in svm_predict_values:
//       d = sum_k (p_k - x_ck)^2
// The first is symmetric in r and c bit for bit (+ and * commute, the sums' order is fixed), the
// second too ((a - b)^2 = (b - a)^2 exactly), so the training pairs are stored once.
#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets {

class RbfDistances {
 public:
  /// train: n x d, valid: m x d (one point per row).
  RbfDistances(const Eigen::MatrixXd& train, const Eigen::MatrixXd& valid);

  int train_size() const { return n_; }
  int valid_size() const { return m_; }

  /// Offset of the pair (r, c), c <= r, in the packed training arrays (row r holds c = 0..r).
  static std::size_t packed(std::size_t r, std::size_t c) { return r * (r + 1) / 2 + c; }
  /// kernel_rbf's form of the training pairs, packed (n (n + 1) / 2 values).
  const std::vector<double>& train_rbf() const { return train_rbf_; }
  /// k_function's form of the training pairs, packed (n (n + 1) / 2 values; the diagonal is 0).
  const std::vector<double>& train_diff() const { return train_diff_; }
  /// k_function's form of validation point i against training point c, at [c * m + i].
  const std::vector<double>& valid_diff() const { return valid_diff_; }

 private:
  int n_, m_;
  std::vector<double> train_rbf_, train_diff_, valid_diff_;
};

}  // namespace fbosim::datasets

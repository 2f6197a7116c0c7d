#pragma once
// The RBF kernel of the landmine SVMs, computed once per evaluation for libsvm's
// precomputed-kernel mode (kernel_type PRECOMPUTED) and shared by the cv_folds fold models and
// the final model, instead of libsvm recomputing each entry in each of the cv_folds + 1 trainings
// (about half of a landmine run's CPU). The values are the ones libsvm computes itself, bit for
// bit: training rows in the form of its Kernel::kernel_rbf, exp(-gamma (|x_r|^2 + |x_c|^2 -
// 2 x_r . x_c)) with the dot products summed in feature order, prediction rows in the form of
// its Kernel::k_function, exp(-|p - x_c|^2 gamma) with the squared differences summed in feature
// order. Training and decision values are therefore those of kernel_type RBF (tested).
#include <vector>

#include <Eigen/Core>

struct svm_node;
struct svm_model;

namespace fbosim::datasets {

class PrecomputedRbf {
 public:
  /// train: n x d training inputs (one per row); gamma > 0. Computes K(x_r, x_c) for all
  /// n^2 pairs (n (n + 1) / 2 exponentials: the kernel is symmetric bit for bit).
  PrecomputedRbf(const Eigen::MatrixXd& train, double gamma);

  /// libsvm's row of training instance r (0-based) in precomputed format: node 0 is
  /// (0, r + 1), the serial number; node c + 1 is (c + 1, K(x_r, x_c)); then index -1. Any
  /// subset of these rows is a valid svm_problem (the serial numbers index the full rows).
  svm_node* training_row(int r) { return &train_[static_cast<std::size_t>(r) * width()]; }

  /// Rows for svm_predict_values of the points points.row(rows[i]) (points: m x d) against a
  /// model trained on training rows of this object: node c + 1 holds K(p, x_c) for every support
  /// vector c of `model` (the only entries libsvm reads); the others are 0. The pointers stay
  /// valid until the next call.
  const std::vector<svm_node*>& prediction_rows(const Eigen::MatrixXd& points,
                                                const std::vector<int>& rows,
                                                const svm_model& model);

  int size() const { return n_; }

 private:
  std::size_t width() const { return static_cast<std::size_t>(n_) + 2; }

  int n_, d_;
  double gamma_;
  std::vector<double> x_;  // training inputs, row-major n x d
  std::vector<svm_node> train_, predict_;
  std::vector<svm_node*> predict_rows_;
};

}  // namespace fbosim::datasets

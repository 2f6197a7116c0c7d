#pragma once
// The RBF kernel of the landmine SVMs, computed once per evaluation for libsvm's
// precomputed-kernel mode (kernel_type PRECOMPUTED) and shared by the cv_folds fold models and
// the final model, instead of libsvm recomputing each entry in each of the cv_folds + 1 trainings
// (about half of a landmine run's CPU). The values are the ones libsvm computes itself, bit for
// bit: exp(-gamma d) of the field's RbfDistances, the training pairs in the form of its
// Kernel::kernel_rbf, the prediction rows in the form of its Kernel::k_function. Training and
// decision values are therefore those of kernel_type RBF (tested).
#include <vector>

#include "datasets/landmine/rbf_distances.hpp"

struct svm_node;
struct svm_model;

namespace fbosim::datasets {

class PrecomputedRbf {
 public:
  /// The kernel of the points of `d` for gamma > 0: K(x_r, x_c) for all n^2 training pairs
  /// (n (n + 1) / 2 exponentials). `d` must outlive this object.
  PrecomputedRbf(const RbfDistances& d, double gamma);

  /// libsvm's row of training instance r (0-based) in precomputed format: node 0 is
  /// (0, r + 1), the serial number; node c + 1 is (c + 1, K(x_r, x_c)); then index -1. Any
  /// subset of these rows is a valid svm_problem (the serial numbers index the full rows).
  svm_node* training_row(int r) { return &train_[static_cast<std::size_t>(r) * width()]; }

  /// Which points prediction_rows scores.
  enum class Points { training, validation };
  /// Rows for svm_predict_values of the points rows[i] of `which` against a model trained on
  /// training rows of this object: node c + 1 holds K(p, x_c) for every support vector c of
  /// `model` (the only entries libsvm reads); the others are 0. The pointers stay valid until
  /// the next call.
  const std::vector<svm_node*>& prediction_rows(Points which, const std::vector<int>& rows,
                                                const svm_model& model);

  int size() const { return n_; }

 private:
  std::size_t width() const { return static_cast<std::size_t>(n_) + 2; }

  const RbfDistances& d_;
  int n_;
  double gamma_;
  std::vector<svm_node> train_, predict_;
  std::vector<svm_node*> predict_rows_;
};

}  // namespace fbosim::datasets

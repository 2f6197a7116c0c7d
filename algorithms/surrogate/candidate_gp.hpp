#pragma once
// The exact GP posterior on a fixed finite candidate set, updated in O(n t) per observation
// (issue #12: PO-GP-UCB's n = 10,000 released rows, Kharkovskii, Dai & Low 2020, Alg. 2; the
// finite hyperparameter set of Kusner et al. 2015, Alg. 1). An ExactGp keeps the factor L of
// K + s2 I (one row per add, never refactorised) and beta = L^-1 (y - m0); CandidateGp keeps
//   V = L^-1 K(X_t, C)   (t x n, one row per add: v = (k(x, C) - l^T V) / d, with [l^T d] the
//                         factor's new row),
// so that the posterior over the n candidates C is
//   mean = m0 + V^T beta  (updated by += v beta_t),   var = k(c, c) - |V_.c|^2  (-= v^2),
// the same numbers ExactGp::predict(C) gives, without recomputing V (which costs O(n t^2) per
// step). Variances are of the latent f and clamped at 0.
#include <Eigen/Core>

#include "algorithms/surrogate/exact_gp.hpp"

namespace fbosim::surrogate {

class CandidateGp {
 public:
  /// candidates: n x d, one point per row (n >= 1); hyper and options as ExactGp's.
  CandidateGp(Eigen::MatrixXd candidates, gp::SeHyper hyper, ExactGp::Options options = {});

  /// Conditions on y observed at candidate `index` (0 <= index < n).
  void add(Eigen::Index index, double y);
  /// Conditions on y observed at any point x (d-vector).
  void add(const Eigen::VectorXd& x, double y);

  /// Posterior mean at every candidate (n-vector).
  const Eigen::VectorXd& mean() const { return mean_; }
  /// Posterior variance of the latent f at every candidate (n-vector, >= 0).
  const Eigen::VectorXd& variance() const { return variance_; }
  const Eigen::MatrixXd& candidates() const { return candidates_; }
  const ExactGp& gp() const { return gp_; }
  /// Observations conditioned on.
  int size() const { return gp_.size(); }

 private:
  Eigen::MatrixXd candidates_;
  ExactGp gp_;
  // V, row-major so that a new row is contiguous; rows beyond size() are capacity.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> V_;
  Eigen::VectorXd mean_, variance_;
};

}  // namespace fbosim::surrogate

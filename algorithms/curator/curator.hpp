#pragma once
// The curator of PO-GP-UCB (Kharkovskii, Dai & Low, "Private Outsourced Bayesian
// Optimization", ICML 2020, Algorithm 1): it holds the sensitive inputs X (n x d, one input per
// row) and releases Z = X~ M / sqrt(r), a random projection by a d x r matrix M of iid N(0, 1)
// entries, after lifting the singular values of the centred X to at least omega when the
// smallest is below it (after Blocki et al. 2012, "The Johnson-Lindenstrauss transform itself
// preserves differential privacy", Alg. 3). The paper claims (epsilon, delta)-DP for this
// release (its Theorem 1; the proof, App. B.2, is not in our copy); Z lies in the column space
// of the centred X, which separates neighbouring inputs exactly (docs/PRIVATE_BO.md, "The privacy
// doubt"; tests/algorithms/curator/privacy_doubt_test.cpp, `fbosim audit`).
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::curator {

/// How line 9 of Algorithm 1 lifts a singular value sigma below omega.
enum class Lift {
  paper,   ///< sqrt(sigma^2 + omega^2) (Alg. 1 line 9, U sqrt(Sigma^2 + omega^2 I) V^T)
  authors  ///< sigma + omega (the authors' code, as issue #12 reports it; not checked here)
};

/// omega(epsilon, delta, r) = 16 sqrt(r log(2/delta)) log(16 r / delta) / epsilon, natural logs
/// (Alg. 1 line 5) [reconstructed: the extracted text lost epsilon and the radical; this reading
/// reproduces every branch outcome the paper reports, docs/PRIVATE_BO.md "What runs"]. epsilon > 0,
/// delta in (0, 1), r >= 1.
double omega(double epsilon, double delta, int r);

/// Inputs centred and scaled so that the largest row norm is max_norm (sec. 4: "normalize the
/// inputs to have a maximal norm of 25"; centring first, as the paper's branch outcomes
/// require [reconstructed]). A preprocessing step of the experiments: it
/// depends on the data and is not covered by the paper's privacy analysis.
struct Normalised {
  Eigen::MatrixXd X;          ///< n x d, centred, max row norm = max_norm
  Eigen::RowVectorXd centre;  ///< the column means subtracted (1 x d)
  double scale = 1;           ///< the factor applied after centring
};
/// X: n x d (n >= 2, finite, not all rows equal); max_norm > 0.
Normalised normalise(const Eigen::MatrixXd& X, double max_norm);

struct CuratorOptions {
  double epsilon = 1;
  double delta = 1e-5;
  int r = 10;  ///< projection dimension
  Lift lift = Lift::paper;
};

/// Lines 2 and 4-11 of Algorithm 1 before the projection: X~ and what decided it.
struct Transform {
  Eigen::MatrixXd X_tilde;          ///< n x d: the centred X (if branch) or its lift (else)
  Eigen::VectorXd singular_values;  ///< of the centred X, descending (d of them, n > d)
  double sigma_min = 0;             ///< the smallest of them
  double omega = 0;
  bool lifted = false;  ///< sigma_min < omega: the else branch (line 9)
};

/// Centres X (line 2), takes its singular values from the d x d Gram matrix X^T X = V S^2 V^T
/// (exact algebra, and cheap since n >> d), and in the else branch returns
/// X V diag(lift(s_k) / s_k) V^T, which has singular values lift(s_k) and the same singular
/// vectors. X: n x d with n > d. Throws std::invalid_argument when the centred X is
/// rank-deficient and a lift is needed (its U is then not determined).
Transform transform(const Eigen::MatrixXd& X, const CuratorOptions& options);

/// What the curator releases (line 12), with the transform that produced it.
struct Release {
  Eigen::MatrixXd Z;  ///< n x r, row i the image of row i of X
  Transform transform;
};

/// Algorithm 1: transform, then Z = X~ M / sqrt(r) with M (d x r, iid N(0,1), drawn from rng
/// row by row) (lines 3, 7, 10).
Release release(const Eigen::MatrixXd& X, const CuratorOptions& options, core::RngStream& rng);

}  // namespace fbosim::curator

#pragma once
// phi(x) and its Jacobian at one point for shared random features (FTS App. A; the features of
// rff::RandomFeatures). Every source posterior of RGPE / TAF is a function of phi(x) only, so
// an ensemble score evaluates the features once per point and hands them to all N sources.
#include <Eigen/Core>

#include "algorithms/rff/random_features.hpp"

namespace fbosim::ensemble {

/// Scratch space for phi(x) and J(x) = d phi / dx. After the first evaluate() no call
/// allocates. Holds a reference to the features: they must outlive it.
class FeaturePoint {
 public:
  explicit FeaturePoint(const rff::RandomFeatures& features);

  /// phi(x) for x a d-vector, and J(x) when `jacobian` (else jacobian() is stale).
  /// phi(x) = sqrt(v) c / |c| with c_i = cos(s_i . x + b_i), v = signal_var (FTS App. A), so
  /// J = -(sqrt(v) / |c|) (I - c c^T / |c|^2) diag(sin(s_i . x + b_i)) S, S the M x d
  /// frequencies.
  void evaluate(const Eigen::VectorXd& x, bool jacobian);

  const Eigen::VectorXd& phi() const { return phi_; }       ///< M-vector
  const Eigen::MatrixXd& jacobian() const { return jac_; }  ///< M x d, d phi / dx
  /// out = J^T a = d (phi(x) . a) / dx for an M-vector a (out: d-vector, resized once).
  void chain(const Eigen::VectorXd& a, Eigen::VectorXd& out) const;
  const rff::RandomFeatures& features() const { return *features_; }

 private:
  const rff::RandomFeatures* features_;
  Eigen::VectorXd angle_, sin_, cos_, phi_;  // M
  Eigen::MatrixXd jac_;                      // M x d
  Eigen::RowVectorXd proj_;                  // d, chat^T diag(sin) S with chat = c / |c|
};

}  // namespace fbosim::ensemble

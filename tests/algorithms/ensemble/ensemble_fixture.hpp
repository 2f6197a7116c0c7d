#pragma once
// Shared helpers of the ensemble tests: source messages built by hand from data (FTS eq. 3),
// independently of RffSurrogate and of the code under test.
#include <cmath>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/rff/random_features.hpp"

namespace ensemble_test {

/// Sigma = Phi^T Phi + lambda I, Sigma^-1 by an LDL^T solve, nu = Sigma^-1 Phi^T y.
struct Message {
  Eigen::VectorXd nu;
  Eigen::MatrixXd sigma_inverse;
};

inline Message message_from_data(const fbosim::rff::RandomFeatures& f, const Eigen::MatrixXd& X,
                                 const Eigen::VectorXd& y, double lambda) {
  const Eigen::MatrixXd Phi = f.features(X);
  const Eigen::Index M = f.size();
  const Eigen::MatrixXd Sigma = Phi.transpose() * Phi + lambda * Eigen::MatrixXd::Identity(M, M);
  Eigen::MatrixXd Si = Sigma.ldlt().solve(Eigen::MatrixXd::Identity(M, M));
  Si = (0.5 * (Si + Si.transpose())).eval();
  return {Si * (Phi.transpose() * y), Si};
}

inline fbosim::ensemble::SourcePosterior source_from_data(const fbosim::rff::RandomFeatures& f,
                                                          const Eigen::MatrixXd& X,
                                                          const Eigen::VectorXd& y, double lambda) {
  const Message msg = message_from_data(f, X, y, lambda);
  return fbosim::ensemble::SourcePosterior(msg.nu, msg.sigma_inverse, lambda, y.maxCoeff());
}

/// A smooth test function on [0,1]^d, shifted by `shift` (sources of related tasks).
inline Eigen::VectorXd bumps(const Eigen::MatrixXd& X, double shift) {
  Eigen::VectorXd y(X.rows());
  for (Eigen::Index j = 0; j < X.rows(); ++j) {
    const Eigen::VectorXd x = X.row(j).transpose();
    y[j] = std::sin(3.0 * x.sum() + shift) + 0.5 * std::cos(5.0 * x[0] - shift);
  }
  return y;
}

/// Standard normal CDF and density, written out here (not the library's).
inline double cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }
inline double pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI); }
/// EI(mean, var; best) = (mean - best) Phi(z) + s phi(z), z = (mean - best) / s.
inline double ei(double mean, double var, double best) {
  const double s = std::sqrt(var), u = mean - best;
  if (s == 0.0) return std::max(u, 0.0);
  return u * cdf(u / s) + s * pdf(u / s);
}

}  // namespace ensemble_test

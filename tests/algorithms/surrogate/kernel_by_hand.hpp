#pragma once
// The SE, Matern-3/2 and Matern-5/2 kernels with one length scale per dimension, written out
// entry by entry from Rasmussen & Williams (2006) eqs. 4.9 and 4.17 (independent of
// gp::kernel_matrix's vectorised distances and profiles), and the dense GP posterior they give.
#include <cmath>

#include <Eigen/Dense>

#include "algorithms/gp/kernel.hpp"

namespace fbosim::testing {

/// k(a, b) for a, b d-vectors; h.lengthscales has 1 or d entries.
inline double kernel_entry(const gp::KernelHyper& h, const Eigen::VectorXd& a,
                           const Eigen::VectorXd& b) {
  double r2 = 0;
  for (Eigen::Index c = 0; c < a.size(); ++c) {
    const double l = h.lengthscales.size() == 1 ? h.lengthscales[0] : h.lengthscales[c];
    r2 += (a[c] - b[c]) * (a[c] - b[c]) / (l * l);
  }
  const double r = std::sqrt(r2);
  switch (h.family) {
    case gp::KernelFamily::matern32:
      return h.signal_var * (1 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
    case gp::KernelFamily::matern52:
      return h.signal_var * (1 + std::sqrt(5.0) * r + 5.0 * r2 / 3.0) *
             std::exp(-std::sqrt(5.0) * r);
    case gp::KernelFamily::se:
      break;
  }
  return h.signal_var * std::exp(-r2 / 2);
}

/// K(A, B), A n x d and B m x d one point per row.
inline Eigen::MatrixXd kernel_by_hand(const gp::KernelHyper& h, const Eigen::MatrixXd& A,
                                      const Eigen::MatrixXd& B) {
  Eigen::MatrixXd K(A.rows(), B.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.rows(); ++j)
      K(i, j) = kernel_entry(h, A.row(i).transpose(), B.row(j).transpose());
  return K;
}

struct DensePosterior {
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
};

/// The posterior of the latent f at Xq given y at X (noise variance s2, prior mean m0), from an
/// LU solve of K + s2 I.
inline DensePosterior dense_posterior(const gp::KernelHyper& h, const Eigen::MatrixXd& X,
                                      const Eigen::VectorXd& y, const Eigen::MatrixXd& Xq,
                                      double s2, double m0 = 0.0) {
  const Eigen::MatrixXd A =
      kernel_by_hand(h, X, X) + s2 * Eigen::MatrixXd::Identity(X.rows(), X.rows());
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
  const Eigen::MatrixXd Ks = kernel_by_hand(h, X, Xq);
  return {(Ks.transpose() * lu.solve((y.array() - m0).matrix())).array() + m0,
          kernel_by_hand(h, Xq, Xq) - Ks.transpose() * lu.solve(Ks)};
}

}  // namespace fbosim::testing

#include "algorithms/rff/blr_sample.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/Cholesky>

#include "algorithms/rff/blr_posterior.hpp"

namespace fbosim::rff {

Eigen::VectorXd blr_sample(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y, double lambda,
                           core::RngStream& rng) {
  const Eigen::Index n = Phi.rows(), M = Phi.cols();
  if (y.size() != n) throw std::invalid_argument("blr_sample: Phi must be n x M and y an n-vector");
  if (n >= M) {
    BlrPosterior blr(static_cast<int>(M), lambda);
    blr.add(Phi, y);
    return blr.sample(rng);
  }
  const Eigen::VectorXd w = rng.normal_vector(M);
  Eigen::VectorXd r = y - std::sqrt(std::max(lambda, 0.0)) * rng.normal_vector(n);
  Eigen::MatrixXd K = lambda * Eigen::MatrixXd::Identity(n, n);
  K.selfadjointView<Eigen::Lower>().rankUpdate(Phi);  // += Phi Phi^T
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  if (!(lambda > 0) || llt.info() != Eigen::Success) return w;
  r.noalias() -= Phi * w;
  llt.solveInPlace(r);
  Eigen::VectorXd omega = w;
  omega.noalias() += Phi.transpose() * r;
  return omega.allFinite() ? omega : w;
}

}  // namespace fbosim::rff

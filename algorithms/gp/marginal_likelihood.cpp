#include "algorithms/gp/marginal_likelihood.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/Cholesky>

namespace fbosim::gp {

double log_marginal_likelihood(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const SeHyper& hyper, Eigen::Vector3d* grad) {
  return log_marginal_likelihood_sq(squared_distances(X, X), y, hyper, grad);
}

double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& h, Eigen::Vector3d* grad) {
  const Eigen::Index n = y.size();
  const double inv_l2 = 1.0 / (h.lengthscale * h.lengthscale);
  // Kf: the noise-free kernel; K = Kf + sigma^2 I.
  const Eigen::MatrixXd Kf = h.signal_var * (D * (-0.5 * inv_l2)).array().exp().matrix();
  Eigen::MatrixXd K = Kf;
  K.diagonal().array() += h.noise_var;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  if (llt.info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
  const Eigen::VectorXd alpha = llt.solve(y);
  const double log_det = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
  // R&W eq. 5.8: -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2 pi.
  const double lml = -0.5 * y.dot(alpha) - 0.5 * log_det -
                     0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(lml)) return -std::numeric_limits<double>::infinity();
  if (grad) {
    // R&W eq. 5.9: d/d theta_j = 1/2 tr((alpha alpha^T - K^-1) dK/d theta_j), with
    // dK/dlog l = Kf .* D / l^2, dK/dlog sigma_0^2 = Kf, dK/dlog sigma^2 = sigma^2 I.
    const Eigen::MatrixXd Kinv = llt.solve(Eigen::MatrixXd::Identity(n, n));
    const Eigen::MatrixXd W = alpha * alpha.transpose() - Kinv;
    const Eigen::MatrixXd WKf = W.cwiseProduct(Kf);
    (*grad)[0] = 0.5 * inv_l2 * WKf.cwiseProduct(D).sum();
    (*grad)[1] = 0.5 * WKf.sum();
    (*grad)[2] = 0.5 * h.noise_var * W.trace();
  }
  return lml;
}

}  // namespace fbosim::gp

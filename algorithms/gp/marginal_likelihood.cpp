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
  // Kf: the noise-free kernel (lower triangle; symmetric); K = Kf + sigma^2 I.
  Eigen::MatrixXd Kf(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    Kf.col(j).tail(n - j) =
        h.signal_var * (D.col(j).tail(n - j) * (-0.5 * inv_l2)).array().exp().matrix();
  Eigen::MatrixXd K = Kf;
  K.diagonal().array() += h.noise_var;
  const Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt(K);
  if (llt.info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
  const Eigen::VectorXd alpha = llt.solve(y);
  const double log_det = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
  // R&W eq. 5.8: -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2 pi.
  const double lml = -0.5 * y.dot(alpha) - 0.5 * log_det -
                     0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(lml)) return -std::numeric_limits<double>::infinity();
  if (grad) {
    // R&W eq. 5.9: d/d theta_j = 1/2 tr(W dK/d theta_j), W = alpha alpha^T - K^-1, with
    // dK/dlog l = Kf .* D / l^2, dK/dlog sigma_0^2 = Kf, dK/dlog sigma^2 = sigma^2 I.
    // All three traces are sums over one symmetric matrix: one pass over its lower triangle.
    const Eigen::MatrixXd Kinv = llt.solve(Eigen::MatrixXd::Identity(n, n));
    double g_l = 0, g_f = 0, g_n = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double wjj = alpha[j] * alpha[j] - Kinv(j, j);
      g_f += wjj * Kf(j, j);
      g_n += wjj;
      for (Eigen::Index i = j + 1; i < n; ++i) {
        const double wkf = 2.0 * (alpha[i] * alpha[j] - Kinv(i, j)) * Kf(i, j);
        g_f += wkf;
        g_l += wkf * D(i, j);
      }
    }
    (*grad)[0] = 0.5 * inv_l2 * g_l;
    (*grad)[1] = 0.5 * g_f;
    (*grad)[2] = 0.5 * h.noise_var * g_n;
  }
  return lml;
}

}  // namespace fbosim::gp

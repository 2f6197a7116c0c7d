#include "algorithms/gp/kernel_likelihood.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/Cholesky>

#include "algorithms/gp/se_kernel.hpp"

namespace fbosim::gp {

double log_marginal_likelihood(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const KernelHyper& h, Eigen::VectorXd* grad) {
  const Eigen::Index n = X.rows(), p = h.lengthscales.size();
  const double minus_inf = -std::numeric_limits<double>::infinity();
  const Eigen::MatrixXd Z = scale_inputs(X, h.lengthscales);  // x_k / l_k
  const Eigen::MatrixXd R2 = squared_distances(Z, Z);
  Eigen::MatrixXd Kf(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i)
      Kf(i, j) = h.signal_var * kernel_profile(h.family, R2(i, j));
  Eigen::MatrixXd K = Kf;
  K.diagonal().array() += h.noise_var;
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  if (llt.info() != Eigen::Success) return minus_inf;
  const Eigen::VectorXd alpha = llt.solve(y);
  const double log_det = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
  // R&W eq. 5.8: -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2 pi.
  const double lml = -0.5 * y.dot(alpha) - 0.5 * log_det -
                     0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(lml)) return minus_inf;
  if (grad) {
    // R&W eq. 5.9: d/d theta = 1/2 tr(W dK/d theta) = 1/2 sum_ij W_ij (dK/d theta)_ij with
    // W = alpha alpha^T - K^-1 (both symmetric), and
    //   dK/d log l_k   = s^2 F(r^2) .* (z_k - z'_k)^2   (kernel_lengthscale_factor; for one
    //                    length scale the sum over k, r^2 itself),
    //   dK/d log s^2   = Kf,   dK/d log sigma^2 = sigma^2 I.
    const Eigen::MatrixXd W =
        alpha * alpha.transpose() - llt.solve(Eigen::MatrixXd::Identity(n, n));
    Eigen::MatrixXd WF(n, n);  // W .* s^2 F(r^2)
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i)
        WF(i, j) = W(i, j) * h.signal_var * kernel_lengthscale_factor(h.family, R2(i, j));
    grad->resize(p + 2);
    if (p == 1) {
      (*grad)[0] = 0.5 * (WF.array() * R2.array()).sum();
    } else {
      for (Eigen::Index k = 0; k < p; ++k) {
        double s = 0.0;
        for (Eigen::Index j = 0; j < n; ++j)
          for (Eigen::Index i = 0; i < n; ++i) {
            const double dz = Z(i, k) - Z(j, k);
            s += WF(i, j) * dz * dz;
          }
        (*grad)[k] = 0.5 * s;
      }
    }
    (*grad)[p] = 0.5 * (W.array() * Kf.array()).sum();
    (*grad)[p + 1] = 0.5 * h.noise_var * W.trace();
  }
  return lml;
}

}  // namespace fbosim::gp

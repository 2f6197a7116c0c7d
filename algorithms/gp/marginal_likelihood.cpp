#include "algorithms/gp/marginal_likelihood.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/Cholesky>

namespace fbosim::gp {

namespace {

// R = L^-1 for lower-triangular L (lower triangle of R written), by 2 x 2 blocks:
// R11 = L11^-1, R22 = L22^-1, R21 = -L22^-1 L21 R11. About n^3/3 flops, where solving L R = I
// with a dense right-hand side costs n^3; small blocks use column-wise forward substitution.
void lower_inverse(const Eigen::Ref<const Eigen::MatrixXd>& L, Eigen::Ref<Eigen::MatrixXd> R) {
  const Eigen::Index n = L.rows();
  if (n <= 16) {
    for (Eigen::Index j = 0; j < n; ++j) {
      R.col(j).tail(n - j).setZero();
      R(j, j) = 1.0;
      for (Eigen::Index k = j; k < n; ++k) {
        const double xk = R(k, j) / L(k, k);
        R(k, j) = xk;
        R.col(j).tail(n - k - 1).noalias() -= xk * L.col(k).tail(n - k - 1);
      }
    }
    return;
  }
  const Eigen::Index h = n / 2, m = n - h;
  lower_inverse(L.topLeftCorner(h, h), R.topLeftCorner(h, h));
  lower_inverse(L.bottomRightCorner(m, m), R.bottomRightCorner(m, m));
  R.bottomLeftCorner(m, h).noalias() =
      -L.bottomLeftCorner(m, h) * R.topLeftCorner(h, h).triangularView<Eigen::Lower>();
  L.bottomRightCorner(m, m).triangularView<Eigen::Lower>().solveInPlace(R.bottomLeftCorner(m, h));
}

}  // namespace

double log_marginal_likelihood(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const SeHyper& hyper, Eigen::Vector3d* grad) {
  return log_marginal_likelihood_sq(squared_distances(X, X), y, hyper, grad);
}

double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& hyper, Eigen::Vector3d* grad) {
  LmlWorkspace ws;
  return log_marginal_likelihood_sq(D, y, hyper, grad, ws);
}

double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& h, Eigen::Vector3d* grad, LmlWorkspace& ws) {
  const Eigen::Index n = y.size();
  const double minus_inf = -std::numeric_limits<double>::infinity();
  const double inv_l2 = 1.0 / (h.lengthscale * h.lengthscale);
  ws.Kf.resize(n, n);
  ws.L.resize(n, n);
  // Kf: the noise-free kernel (lower triangle only; symmetric); K = Kf + sigma^2 I is factored
  // in place in L. A scalar std::exp loop measured faster here than Eigen's SSE2 packet exp.
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = j; i < n; ++i)
      ws.L(i, j) = ws.Kf(i, j) = h.signal_var * std::exp(-0.5 * inv_l2 * D(i, j));
  ws.L.diagonal().array() += h.noise_var;
  const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> llt(ws.L);
  if (llt.info() != Eigen::Success) return minus_inf;
  ws.alpha = y;
  llt.solveInPlace(ws.alpha);
  const double log_det = 2.0 * ws.L.diagonal().array().log().sum();
  // R&W eq. 5.8: -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2 pi.
  const double lml = -0.5 * y.dot(ws.alpha) - 0.5 * log_det -
                     0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(lml)) return minus_inf;
  if (grad) {
    // R&W eq. 5.9: d/d theta_j = 1/2 tr(W dK/d theta_j), W = alpha alpha^T - K^-1, with
    // dK/dlog l = Kf .* D / l^2, dK/dlog sigma_0^2 = Kf, dK/dlog sigma^2 = sigma^2 I.
    // All three traces are sums over one symmetric matrix: one pass over its lower triangle,
    // with (K^-1)_ij = (L^-T L^-1)_ij a dot product of the tails of two columns of L^-1.
    ws.Linv.resize(n, n);
    lower_inverse(ws.L, ws.Linv);
    const Eigen::MatrixXd& R = ws.Linv;
    const Eigen::VectorXd& a = ws.alpha;
    double g_l = 0, g_f = 0, g_n = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double wjj = a[j] * a[j] - R.col(j).tail(n - j).squaredNorm();
      g_f += wjj * ws.Kf(j, j);
      g_n += wjj;
      for (Eigen::Index i = j + 1; i < n; ++i) {
        const double kinv_ij = R.col(i).tail(n - i).dot(R.col(j).tail(n - i));
        const double wkf = 2.0 * (a[i] * a[j] - kinv_ij) * ws.Kf(i, j);
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

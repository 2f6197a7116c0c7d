#include "algorithms/gp/marginal_likelihood.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/Core>

#include "algorithms/gp/fast_exp.hpp"
#include "sim/core/simd_clones.hpp"

namespace fbosim::gp {

namespace {

using Eigen::Index;

// The kernels below work on column-major n x n arrays (lower triangles) in loops over rows
// only, so each is vectorised across rows and every element sees the same operations in the
// same order whatever the SIMD width: the AVX2 and baseline clones give the same bits.

// Kf = signal_var exp(-D / (2 l^2)), lower triangle (the kernel of R&W eq. 5.8 without noise).
void kernel_lower(const Eigen::MatrixXd& D, double lengthscale, double signal_var,
                  Eigen::MatrixXd& Kf) {
  const Index n = D.rows();
  const double scale = -0.5 / (lengthscale * lengthscale);
  for (Index j = 0; j < n; ++j) {
    double* const k = Kf.col(j).data();
    const double* const d = D.col(j).data();
    for (Index i = j; i < n; ++i) k[i] = scale * d[i];
    fast_exp(k + j, k + j, n - j);
    for (Index i = j; i < n; ++i) k[i] *= signal_var;
  }
}

// c[i] -= a[0] l[0][i] + ... for i in [lo, n), the updates applied one after the other.
template <int K>
[[gnu::always_inline]] inline void subtract_columns(double* __restrict c,
                                                    const double* const (&l)[K],
                                                    const double (&a)[K], Index lo, Index n) {
  for (Index i = lo; i < n; ++i) {
    double v = c[i];
    for (int k = 0; k < K; ++k) v -= a[k] * l[k][i];
    c[i] = v;
  }
}

// Cholesky factor of the lower triangle of L (n x n), in place, left-looking by columns: column
// j less the earlier columns times L(j, k), four at a time, then scaled by its pivot. False
// when a pivot is not positive (K not positive definite) or NaN.
FBOSIM_SIMD_CLONES bool cholesky_lower(double* L, Index n) {
  for (Index j = 0; j < n; ++j) {
    double* const c = L + j * n;
    Index k = 0;
    for (; k + 4 <= j; k += 4) {
      const double* const l[4] = {L + k * n, L + (k + 1) * n, L + (k + 2) * n, L + (k + 3) * n};
      const double a[4] = {l[0][j], l[1][j], l[2][j], l[3][j]};
      subtract_columns<4>(c, l, a, j, n);
    }
    for (; k < j; ++k) {
      const double* const l[1] = {L + k * n};
      const double a[1] = {l[0][j]};
      subtract_columns<1>(c, l, a, j, n);
    }
    if (!(c[j] > 0.0)) return false;
    const double pivot = std::sqrt(c[j]);
    c[j] = pivot;
    for (Index i = j + 1; i < n; ++i) c[i] /= pivot;
  }
  return true;
}

// R = L^-1 (lower triangle; L lower, n x n), column by column by forward substitution: four
// unknowns at a time from the 4 x 4 diagonal block, then the rows below less the four columns
// of L (each element still sees the updates in the order k, k + 1, ...).
FBOSIM_SIMD_CLONES void lower_inverse(const double* L, double* R, Index n) {
  for (Index j = 0; j < n; ++j) {
    double* const r = R + j * n;
    for (Index i = j; i < n; ++i) r[i] = 0.0;
    r[j] = 1.0;
    Index k = j;
    for (; k + 4 <= n; k += 4) {
      const double* const l[4] = {L + k * n, L + (k + 1) * n, L + (k + 2) * n, L + (k + 3) * n};
      double x[4];
      for (int b = 0; b < 4; ++b) {
        double v = r[k + b];
        for (int c = 0; c < b; ++c) v -= x[c] * l[c][k + b];
        x[b] = v / l[b][k + b];
        r[k + b] = x[b];
      }
      subtract_columns<4>(r, l, x, k + 4, n);
    }
    for (; k < n; ++k) {
      const double x = r[k] / L[k * n + k];
      r[k] = x;
      const double* const l[1] = {L + k * n};
      const double a[1] = {x};
      subtract_columns<1>(r, l, a, k + 1, n);
    }
  }
}

// The sums of R&W eq. 5.9 with W = alpha alpha^T - K^-1 over the lower triangle: returns
// (sum W_ij Kf_ij D_ij, sum W_ij Kf_ij, tr W), off-diagonal terms counted twice. Column j of
// K^-1 = R^T R is sum_k R(k, j) times row k of R, i.e. column k of T = R^T (zero below its
// diagonal, so four columns are added at once over the rows of the longest); the off-diagonal
// terms are summed per row i over the columns j, then over the rows. Scratch: T (n x n), v,
// acc_f, acc_l (n each).
FBOSIM_SIMD_CLONES Eigen::Vector3d gradient_sums(const double* R, const double* Kf, const double* D,
                                                 const double* alpha, Index n, double* T, double* v,
                                                 double* acc_f, double* acc_l) {
  for (Index k = 0; k < n; ++k) {
    for (Index i = 0; i <= k; ++i) T[k * n + i] = R[i * n + k];
    for (Index i = k + 1; i < n; ++i) T[k * n + i] = 0.0;
  }
  for (Index i = 0; i < n; ++i) acc_f[i] = acc_l[i] = 0.0;
  double trace_w = 0.0, diag_f = 0.0;
  for (Index j = 0; j < n; ++j) {
    for (Index i = j; i < n; ++i) v[i] = 0.0;
    Index k = j;
    for (; k + 4 <= n; k += 4) {  // v[j..k+3] += R(k + b, j) T[j..k+3, k + b], b = 0..3
      const double* const t[4] = {T + k * n, T + (k + 1) * n, T + (k + 2) * n, T + (k + 3) * n};
      const double a[4] = {-R[j * n + k], -R[j * n + k + 1], -R[j * n + k + 2], -R[j * n + k + 3]};
      subtract_columns<4>(v, t, a, j, k + 4);
    }
    for (; k < n; ++k) {
      const double* const t[1] = {T + k * n};
      const double a[1] = {-R[j * n + k]};
      subtract_columns<1>(v, t, a, j, k + 1);
    }
    const double aj = alpha[j];
    const double wjj = aj * aj - v[j];
    trace_w += wjj;
    diag_f += wjj * Kf[j * n + j];
    const double* const kf = Kf + j * n;
    const double* const d = D + j * n;
    for (Index i = j + 1; i < n; ++i) {
      const double w = 2.0 * (alpha[i] * aj - v[i]) * kf[i];
      acc_f[i] += w;
      acc_l[i] += w * d[i];
    }
  }
  double sum_f = diag_f, sum_l = 0.0;
  for (Index i = 0; i < n; ++i) {
    sum_f += acc_f[i];
    sum_l += acc_l[i];
  }
  return {sum_l, sum_f, trace_w};
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
  const Index n = y.size();
  const double minus_inf = -std::numeric_limits<double>::infinity();
  ws.Kf.resize(n, n);
  ws.L.resize(n, n);
  // Kf: the noise-free kernel (lower triangle only; symmetric); K = Kf + sigma^2 I is factored
  // in place in L.
  kernel_lower(D, h.lengthscale, h.signal_var, ws.Kf);
  for (Index j = 0; j < n; ++j) ws.L.col(j).tail(n - j) = ws.Kf.col(j).tail(n - j);
  ws.L.diagonal().array() += h.noise_var;
  if (!cholesky_lower(ws.L.data(), n)) return minus_inf;
  const Eigen::MatrixXd& L = ws.L;
  ws.alpha = y;
  L.triangularView<Eigen::Lower>().solveInPlace(ws.alpha);
  L.triangularView<Eigen::Lower>().transpose().solveInPlace(ws.alpha);
  const double log_det = 2.0 * ws.L.diagonal().array().log().sum();
  // R&W eq. 5.8: -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2 pi.
  const double lml = -0.5 * y.dot(ws.alpha) - 0.5 * log_det -
                     0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(lml)) return minus_inf;
  if (grad) {
    // R&W eq. 5.9: d/d theta_j = 1/2 tr(W dK/d theta_j), W = alpha alpha^T - K^-1, with
    // dK/dlog l = Kf .* D / l^2, dK/dlog sigma_0^2 = Kf, dK/dlog sigma^2 = sigma^2 I: sums of
    // W times Kf .* D, Kf and I over the symmetric matrices, from K^-1 = L^-T L^-1.
    ws.Linv.resize(n, n);
    ws.T.resize(n, n);
    ws.scratch.resize(n, 3);
    lower_inverse(ws.L.data(), ws.Linv.data(), n);
    const Eigen::Vector3d s =
        gradient_sums(ws.Linv.data(), ws.Kf.data(), D.data(), ws.alpha.data(), n, ws.T.data(),
                      ws.scratch.col(0).data(), ws.scratch.col(1).data(), ws.scratch.col(2).data());
    (*grad)[0] = 0.5 * s[0] / (h.lengthscale * h.lengthscale);
    (*grad)[1] = 0.5 * s[1];
    (*grad)[2] = 0.5 * h.noise_var * s[2];
  }
  return lml;
}

}  // namespace fbosim::gp

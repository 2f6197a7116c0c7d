#include "algorithms/rff/random_features.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "algorithms/rff/fast_trig.hpp"
#include "algorithms/rff/trig_lanes.hpp"
#include "core/simd_clones.hpp"

// The 4-lane kernels below return vectors by value from always-inlined functions: no call, so
// no ABI to warn about in the baseline clone (GCC reports it at the end of the file, after any
// push/pop would have closed).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace fbosim::rff {

// The factor sqrt(2/M) of phi(x)_i = sqrt(2/M) cos(s_i . x + b_i) cancels in the per-input
// normalisation ([code]), so only the cosines are computed below.

RandomFeatures RandomFeatures::draw(int dim, int M, double lengthscale, double signal_var,
                                    core::RngStream& rng) {
  if (dim < 1 || M < 1 || !(lengthscale > 0) || !(signal_var > 0))
    throw std::invalid_argument("RandomFeatures::draw: need dim, M >= 1 and l, signal_var > 0");
  RandomFeatures f;
  // s_i ~ N(0, l^-2 I): the spectral density of the SE kernel (Rahimi & Recht 2007). Draw
  // order is part of the contract: all of S row by row, then b.
  f.S_ = rng.normal_matrix(M, dim) / lengthscale;
  f.b_.resize(M);
  for (int i = 0; i < M; ++i) f.b_[i] = rng.uniform(0.0, 2.0 * std::numbers::pi);
  f.signal_var_ = signal_var;
  return f;
}

RandomFeatures RandomFeatures::draw(int dim, int M, gp::KernelFamily family,
                                    const Eigen::VectorXd& lengthscales, double signal_var,
                                    core::RngStream& rng) {
  if (dim < 1 || M < 1 || !(signal_var > 0) ||
      (lengthscales.size() != 1 && lengthscales.size() != dim) || !(lengthscales.array() > 0).all())
    throw std::invalid_argument(
        "RandomFeatures::draw: need dim, M >= 1, signal_var > 0 and one length scale > 0 or one "
        "per dimension");
  RandomFeatures f;
  f.S_ = rng.normal_matrix(M, dim);
  // Matern-nu's spectral density in the angular frequency s is proportional to
  // (2 nu / l^2 + |s|^2)^-(nu + d/2) (R&W eq. 4.15 with s = 2 pi times theirs): the density of
  // a multivariate t with 2 nu degrees of freedom and scale matrix l^-2 I, which is z / sqrt(u /
  // (2 nu)) with z ~ N(0, l^-2 I) and one u ~ chi^2_{2 nu} per feature, shared by its
  // dimensions. 2 nu is 3 or 5: u is a sum of that many squared standard normals.
  const double nu = gp::matern_nu(family);
  if (nu > 0) {
    const int dof = static_cast<int>(2 * nu);
    for (int i = 0; i < M; ++i) {
      double u = 0.0;
      for (int k = 0; k < dof; ++k) {
        const double z = rng.normal();
        u += z * z;
      }
      f.S_.row(i) /= std::sqrt(u / dof);
    }
  }
  // ARD: dimension k of the frequencies over its own length scale (the kernel of x / l).
  if (lengthscales.size() == 1)
    f.S_ /= lengthscales[0];
  else
    f.S_ = f.S_ * lengthscales.cwiseInverse().asDiagonal();
  f.b_.resize(M);
  for (int i = 0; i < M; ++i) f.b_[i] = rng.uniform(0.0, 2.0 * std::numbers::pi);
  f.signal_var_ = signal_var;
  return f;
}

RandomFeatures RandomFeatures::from(Eigen::MatrixXd S, Eigen::VectorXd b, double signal_var) {
  if (S.rows() < 1 || S.cols() < 1 || b.size() != S.rows() || !(signal_var > 0))
    throw std::invalid_argument(
        "RandomFeatures::from: need S M x d with M, d >= 1, b an M-vector and signal_var > 0");
  RandomFeatures f;
  f.S_ = std::move(S);
  f.b_ = std::move(b);
  f.signal_var_ = signal_var;
  return f;
}

namespace {
// Points are processed in blocks so the angle and cosine buffers stay small (no page faults
// from large temporaries) and cache-resident.
constexpr Eigen::Index kBlock = 64;

void check(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

// Below this input dimension the angles s_i . x_j + b_i are summed directly: Eigen's matrix
// product spends most of its time packing and zeroing for an inner dimension of 2 (landmine,
// the boxes), and for depth < 8 it sums k = 0, 1, ... in order from 0, as the loop below does,
// so the angles are the same bit for bit.
constexpr Eigen::Index kDirectDepth = 8;

// A.leftCols(m) = S X_block^T + b: column j holds the angles of point r0 + j.
void block_angles(const Eigen::MatrixXd& X, Eigen::Index r0, Eigen::Index m,
                  const Eigen::MatrixXd& S, const Eigen::VectorXd& b, Eigen::MatrixXd& A) {
  const Eigen::Index M = S.rows(), d = S.cols();
  if (d >= kDirectDepth) {
    A.leftCols(m).noalias() = S * X.middleRows(r0, m).transpose();
    A.leftCols(m).colwise() += b;
    return;
  }
  for (Eigen::Index j = 0; j < m; ++j) {
    double* const a = A.col(j).data();
    for (Eigen::Index i = 0; i < M; ++i) a[i] = S(i, 0) * X(r0 + j, 0);
    for (Eigen::Index k = 1; k < d; ++k) {
      const double x = X(r0 + j, k);
      const double* const s = S.col(k).data();
      for (Eigen::Index i = 0; i < M; ++i) a[i] += s[i] * x;
    }
    for (Eigen::Index i = 0; i < M; ++i) a[i] += b[i];
  }
}

// C.leftCols(m) = cos(S X_block^T + b): column j holds the cosines of point r0 + j.
void block_cosines(const Eigen::MatrixXd& X, Eigen::Index r0, Eigen::Index m,
                   const Eigen::MatrixXd& S, const Eigen::VectorXd& b, Eigen::MatrixXd& A,
                   Eigen::MatrixXd& C) {
  block_angles(X, r0, m, S, b, A);
  fast_cos(A.data(), C.data(), S.rows() * m);
}

// |angle| <= max_i (sum_k |S_ik| max_j |X_jk| + |b_i|): when this bound is within fast_trig's
// range every angle is, and the 4-lane cosine needs no per-element check. NaN -> NaN.
double angle_bound(const Eigen::MatrixXd& X, const Eigen::MatrixXd& S, const Eigen::VectorXd& b) {
  const Eigen::RowVectorXd xmax = X.cwiseAbs().colwise().maxCoeff();
  double bound = 0.0;
  for (Eigen::Index i = 0; i < S.rows(); ++i) {
    double a = std::abs(b[i]);
    for (Eigen::Index k = 0; k < S.cols(); ++k) a += std::abs(S(i, k)) * xmax[k];
    bound = std::max(bound, a);
    if (std::isnan(a)) return a;
  }
  return bound;
}

// out_j = (c_j . omega) / |c_j| with c_j = cos(S x_j + b), one pass over the features for four
// points at once (a lane per point: no M x n cosine matrix, no second pass for the dot products
// and norms). Each point's angle is summed as block_angles does, and its dot product and squared
// norm over i = 0, 1, ... in order, so every lane and the scalar tail see the same operations
// whatever the SIMD width. Needs d < kDirectDepth and every |angle| <= lanes::kMaxArg.
template <int D>
[[gnu::always_inline]] inline void score_lanes(const double* S, const double* b,
                                               const double* omega, Eigen::Index M, Eigen::Index d,
                                               const lanes::Vec (&x)[kDirectDepth], lanes::Vec& dot,
                                               lanes::Vec& nrm) {
  const Eigen::Index dims = D > 0 ? D : d;
  for (Eigen::Index i = 0; i < M; ++i) {
    lanes::Vec a = S[i] * x[0];
    for (Eigen::Index k = 1; k < dims; ++k) a = a + S[k * M + i] * x[k];
    a = a + b[i];
    const lanes::Vec c = lanes::cos_only(a);
    dot = dot + c * omega[i];
    nrm = nrm + c * c;
  }
}

FBOSIM_SIMD_CLONES void normalised_scores(const double* S, const double* b, const double* omega,
                                          Eigen::Index M, Eigen::Index d, const double* X,
                                          Eigen::Index n, double* out) {
  constexpr Eigen::Index kLanes = 4;
  for (Eigen::Index j = 0; j < n; j += kLanes) {
    const Eigen::Index m = std::min(kLanes, n - j);
    const auto bytes = static_cast<std::size_t>(m) * sizeof(double);
    lanes::Vec x[kDirectDepth] = {};  // lanes past n hold the origin: finite, then discarded
    for (Eigen::Index k = 0; k < d; ++k) std::memcpy(&x[k], X + k * n + j, bytes);
    lanes::Vec dot{}, nrm{};
    switch (d) {
      case 1:
        score_lanes<1>(S, b, omega, M, d, x, dot, nrm);
        break;
      case 2:
        score_lanes<2>(S, b, omega, M, d, x, dot, nrm);
        break;
      case 3:
        score_lanes<3>(S, b, omega, M, d, x, dot, nrm);
        break;
      default:
        score_lanes<0>(S, b, omega, M, d, x, dot, nrm);
    }
    for (Eigen::Index l = 0; l < m; ++l) out[j + l] = dot[l] / std::sqrt(nrm[l]);
  }
}

// Lane sums added in one fixed order.
[[gnu::always_inline]] inline double lane_sum(const lanes::Vec& v) {
  return (v[0] + v[1]) + (v[2] + v[3]);
}

// The running sums of value_lanes: c . omega, |c|^2 and, per input dimension k,
// sum_i s_ik sin_i omega_i and sum_i s_ik sin_i c_i, a lane per feature i mod 4.
struct LaneSums {
  lanes::Vec u{}, n2{}, A[kDirectDepth] = {}, B[kDirectDepth] = {};
  lanes::Vec bad{};  // nonzero where an angle is beyond fast_trig's range or NaN
};

// Adds the features i..i+3 (m < 4 of them real: the others have s = b = omega = 0 and their
// cosine, 1, is masked out of |c|^2).
template <int D, bool Grad>
[[gnu::always_inline]] inline void add_features(const double* S, const double* b,
                                                const double* omega, Eigen::Index M, Eigen::Index d,
                                                const double* x, Eigen::Index i, Eigen::Index m,
                                                LaneSums& t) {
  using lanes::Vec;
  const Eigen::Index dims = D > 0 ? D : d;
  const auto bytes = static_cast<std::size_t>(m) * sizeof(double);
  Vec s[kDirectDepth] = {}, w{}, angle{};
  for (Eigen::Index k = 0; k < dims; ++k) std::memcpy(&s[k], S + k * M + i, bytes);
  std::memcpy(&w, omega + i, bytes);
  std::memcpy(&angle, b + i, bytes);
  Vec a = s[0] * x[0];
  for (Eigen::Index k = 1; k < dims; ++k) a = a + s[k] * x[k];
  a = a + angle;
  const Vec abs_a = a < 0.0 ? -a : a;
  t.bad = abs_a <= lanes::kMaxArg ? t.bad : t.bad + 1.0;
  const lanes::SinCos<Vec> sc = lanes::sincos(a);
  Vec c = sc.c;
  if (m < 4) {
    Vec mask{};
    for (Eigen::Index l = 0; l < m; ++l) mask[l] = 1.0;
    c = c * mask;
  }
  t.u = t.u + c * w;
  t.n2 = t.n2 + c * c;
  if constexpr (Grad) {
    const Vec sw = sc.s * w, scc = sc.s * c;
    for (Eigen::Index k = 0; k < dims; ++k) {
      t.A[k] = t.A[k] + s[k] * sw;
      t.B[k] = t.B[k] + s[k] * scc;
    }
  }
}

template <int D, bool Grad>
[[gnu::always_inline]] inline void sum_features(const double* S, const double* b,
                                                const double* omega, Eigen::Index M, Eigen::Index d,
                                                const double* x, LaneSums& t) {
  Eigen::Index i = 0;
  for (; i + 4 <= M; i += 4) add_features<D, Grad>(S, b, omega, M, d, x, i, 4, t);
  if (i < M) add_features<D, Grad>(S, b, omega, M, d, x, i, M - i, t);
}

// sum_features with the input dimension fixed at compile time for d = 1, 2, 3.
template <bool Grad>
[[gnu::always_inline]] inline void sum_features_of_dim(const double* S, const double* b,
                                                       const double* omega, Eigen::Index M,
                                                       Eigen::Index d, const double* x,
                                                       LaneSums& t) {
  switch (d) {
    case 1:
      sum_features<1, Grad>(S, b, omega, M, d, x, t);
      break;
    case 2:
      sum_features<2, Grad>(S, b, omega, M, d, x, t);
      break;
    case 3:
      sum_features<3, Grad>(S, b, omega, M, d, x, t);
      break;
    default:
      sum_features<0, Grad>(S, b, omega, M, d, x, t);
  }
}

// g(x) = sqrt(v) (c . omega) / |c| and, if grad is non-null, its gradient
// -(sqrt(v) / |c|) sum_i s_i sin_i (omega_i - r c_i), r = (c . omega) / |c|^2, summed as
// sum_i s_i sin_i omega_i - r sum_i s_i sin_i c_i: one pass over the features, four at a time (a
// lane per feature). Each lane sums its features in order and the lanes are added in one fixed
// order, so both clones give the same bits. False (outputs unset) when an angle is beyond
// fast_trig's range or NaN.
FBOSIM_SIMD_CLONES bool value_lanes(const double* S, const double* b, const double* omega,
                                    Eigen::Index M, Eigen::Index d, const double* x,
                                    double root_var, double* g, double* grad) {
  LaneSums t;
  if (grad)
    sum_features_of_dim<true>(S, b, omega, M, d, x, t);
  else
    sum_features_of_dim<false>(S, b, omega, M, d, x, t);
  if (lane_sum(t.bad) != 0.0) return false;
  const double dot = lane_sum(t.u), sq = lane_sum(t.n2), norm = std::sqrt(sq);
  *g = root_var * dot / norm;
  if (grad) {
    const double r = dot / sq;
    for (Eigen::Index k = 0; k < d; ++k)
      grad[k] = (lane_sum(t.A[k]) - r * lane_sum(t.B[k])) * (-root_var / norm);
  }
  return true;
}

// The same sums with std::cos, for angles beyond fast_trig's range (and NaN).
void normalised_scores_libm(const Eigen::MatrixXd& S, const Eigen::VectorXd& b,
                            const Eigen::VectorXd& omega, const Eigen::MatrixXd& X, double* out) {
  for (Eigen::Index j = 0; j < X.rows(); ++j) {
    double dot = 0.0, nrm = 0.0;
    for (Eigen::Index i = 0; i < S.rows(); ++i) {
      double a = S(i, 0) * X(j, 0);
      for (Eigen::Index k = 1; k < S.cols(); ++k) a += S(i, k) * X(j, k);
      const double c = std::cos(a + b[i]);
      dot += c * omega[i];
      nrm += c * c;
    }
    out[j] = dot / std::sqrt(nrm);
  }
}
}  // namespace

Eigen::MatrixXd RandomFeatures::features(const Eigen::MatrixXd& X) const {
  check(X.cols() == dim(), "RandomFeatures::features: X must have dim() columns");
  const Eigen::Index n = X.rows(), M = size();
  Eigen::MatrixXd Phi(n, M), A(M, kBlock), C(M, kBlock);
  for (Eigen::Index r0 = 0; r0 < n; r0 += kBlock) {
    const Eigen::Index m = std::min(kBlock, n - r0);
    block_cosines(X, r0, m, S_, b_, A, C);
    const Eigen::RowVectorXd scale =
        std::sqrt(signal_var_) * C.leftCols(m).colwise().norm().cwiseInverse();
    Phi.middleRows(r0, m) = (C.leftCols(m) * scale.asDiagonal()).transpose();
  }
  return Phi;
}

Eigen::VectorXd RandomFeatures::feature(const Eigen::VectorXd& x) const {
  return features(x.transpose()).transpose();
}

Eigen::VectorXd RandomFeatures::values(const Eigen::MatrixXd& X,
                                       const Eigen::VectorXd& omega) const {
  check(X.cols() == dim() && omega.size() == size(), "RandomFeatures::values: bad dimensions");
  const Eigen::Index n = X.rows(), M = size();
  Eigen::VectorXd g(n);
  if (dim() < kDirectDepth) {
    if (angle_bound(X, S_, b_) <= lanes::kMaxArg)
      normalised_scores(S_.data(), b_.data(), omega.data(), M, dim(), X.data(), n, g.data());
    else
      normalised_scores_libm(S_, b_, omega, X, g.data());
    return std::sqrt(signal_var_) * g;
  }
  Eigen::MatrixXd A(M, kBlock), C(M, kBlock);
  for (Eigen::Index r0 = 0; r0 < n; r0 += kBlock) {
    const Eigen::Index m = std::min(kBlock, n - r0);
    block_cosines(X, r0, m, S_, b_, A, C);
    g.segment(r0, m).noalias() = C.leftCols(m).transpose() * omega;
    g.segment(r0, m).array() /= C.leftCols(m).colwise().norm().transpose().array();
  }
  return std::sqrt(signal_var_) * g;
}

double RandomFeatures::value(const Eigen::VectorXd& x, const Eigen::VectorXd& omega,
                             Eigen::VectorXd* grad) const {
  Workspace ws;
  return value(x, omega, grad, ws);
}

double RandomFeatures::value(const Eigen::VectorXd& x, const Eigen::VectorXd& omega,
                             Eigen::VectorXd* grad, Workspace& ws) const {
  check(x.size() == dim() && omega.size() == size(), "RandomFeatures::value: bad dimensions");
  const Eigen::Index M = S_.rows();
  if (dim() < kDirectDepth) {
    double g = 0.0;
    if (grad) grad->resize(S_.cols());
    if (value_lanes(S_.data(), b_.data(), omega.data(), M, dim(), x.data(), std::sqrt(signal_var_),
                    &g, grad ? grad->data() : nullptr))
      return g;
  }
  ws.angle.resize(M);
  ws.cos.resize(M);
  ws.sin.resize(M);
  ws.angle.noalias() = S_ * x;
  ws.angle += b_;
  fast_sincos(ws.angle.data(), ws.sin.data(), ws.cos.data(), M);
  const double u = ws.cos.dot(omega);  // c . omega with c_i = cos(s_i . x + b_i)
  const double n2 = ws.cos.squaredNorm();
  const double norm = std::sqrt(n2);
  const double root_var = std::sqrt(signal_var_);
  if (grad) {
    // g = sqrt(v) u / |c|, dc_i/dx = -sin_i s_i, so
    // dg/dx = -(sqrt(v)/|c|) S^T [sin o (omega - (u/|c|^2) c)] (quotient rule on the norm).
    const double r = u / n2;
    ws.sin.array() *= omega.array() - r * ws.cos.array();
    grad->resize(S_.cols());
    grad->noalias() = S_.transpose() * ws.sin;
    *grad *= -root_var / norm;
  }
  return root_var * u / norm;
}

}  // namespace fbosim::rff

#include "algorithms/surrogate/exact_gp.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fbosim::surrogate {

namespace {
void check_hyper(const gp::SeHyper& h, const ExactGp::Options& o) {
  auto bad = [](const std::string& what, double v) {
    return std::invalid_argument("ExactGp: " + what + ", got " + std::to_string(v));
  };
  if (!(h.lengthscale > 0.0) || !std::isfinite(h.lengthscale))
    throw bad("lengthscale must be finite and > 0", h.lengthscale);
  if (!(h.signal_var > 0.0) || !std::isfinite(h.signal_var))
    throw bad("signal_var must be finite and > 0", h.signal_var);
  if (!(h.noise_var >= 0.0) || !std::isfinite(h.noise_var))
    throw bad("noise_var must be finite and >= 0", h.noise_var);
  if (!(o.jitter >= 0.0) || !std::isfinite(o.jitter))
    throw bad("jitter must be finite and >= 0", o.jitter);
  if (!(h.noise_var + o.jitter * h.signal_var > 0.0))
    throw std::invalid_argument("ExactGp: noise_var + jitter * signal_var must be > 0");
  if (!std::isfinite(o.prior_mean)) throw bad("prior_mean must be finite", o.prior_mean);
}

void check_kernel(const gp::KernelHyper& h, int dim) {
  if (h.lengthscales.size() != 1 && h.lengthscales.size() != dim)
    throw std::invalid_argument("ExactGp: need 1 or " + std::to_string(dim) +
                                " length scales, got " + std::to_string(h.lengthscales.size()));
  for (const double l : h.lengthscales)
    if (!(l > 0.0) || !std::isfinite(l))
      throw std::invalid_argument("ExactGp: every length scale must be finite and > 0, got " +
                                  std::to_string(l));
}

// The SeHyper part of a kernel's hyperparameters (its first length scale).
gp::SeHyper se_part(const gp::KernelHyper& h) {
  return {h.lengthscales.size() > 0 ? h.lengthscales[0] : 0.0, h.signal_var, h.noise_var};
}

bool is_isotropic_se(const gp::KernelHyper& h) {
  return h.family == gp::KernelFamily::se && h.lengthscales.size() == 1;
}

// Cache-friendly chunk of query points for predict(): V is n x chunk.
constexpr Eigen::Index kChunk = 512;

// Storage for n points and then some: 1.5 n keeps the factor's memory within 2.25 n^2 doubles.
Eigen::Index grown_capacity(Eigen::Index n) { return std::max<Eigen::Index>(16, n + n / 2); }
}  // namespace

ExactGp::ExactGp(int dim, gp::SeHyper hyper) : ExactGp(dim, hyper, Options{}) {}

ExactGp::ExactGp(int dim, gp::SeHyper hyper, Options options)
    : dim_(dim), hyper_(hyper), options_(options), X_(0, dim), y_(0) {
  if (dim < 1) throw std::invalid_argument("ExactGp: dim must be >= 1, got " + std::to_string(dim));
  check_hyper(hyper_, options_);
}

ExactGp::ExactGp(int dim, const gp::KernelHyper& hyper) : ExactGp(dim, hyper, Options{}) {}

ExactGp::ExactGp(int dim, const gp::KernelHyper& hyper, Options options)
    : ExactGp(dim, se_part(hyper), options) {
  check_kernel(hyper, dim);
  if (!is_isotropic_se(hyper)) kernel_ = hyper;
}

gp::KernelHyper ExactGp::kernel_hyper() const {
  if (kernel_) return *kernel_;
  return {gp::KernelFamily::se, Eigen::VectorXd::Constant(1, hyper_.lengthscale), hyper_.signal_var,
          hyper_.noise_var};
}

Eigen::MatrixXd ExactGp::covariance(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  if (kernel_) return gp::kernel_matrix(*kernel_, A, B);
  return gp::se_kernel(A, B, hyper_.lengthscale, hyper_.signal_var);
}

void ExactGp::fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) {
  if (X.cols() != dim_ || X.rows() != y.size())
    throw std::invalid_argument("ExactGp::fit: X must be n x " + std::to_string(dim_) +
                                " and y an n-vector");
  if (!X.allFinite() || !y.allFinite())
    throw std::invalid_argument("ExactGp::fit: X and y must be finite");
  // Strong guarantee: the state changes only once the new factor is known to exist.
  ExactGp next(dim_, hyper_, options_);  // not a copy: the old factor is not needed
  next.kernel_ = kernel_;
  next.X_ = X;
  next.y_ = y;
  next.n_ = static_cast<int>(y.size());
  next.refactorise();
  *this = std::move(next);
}

void ExactGp::refactorise() {
  const Eigen::Index n = n_;
  const Eigen::Index cap = grown_capacity(n);  // headroom: the next adds do not reallocate
  L_ = Eigen::MatrixXd::Zero(cap, cap);
  beta_ = Eigen::VectorXd::Zero(cap);
  if (n == 0) return;
  Eigen::MatrixXd K = covariance(X_, X_);
  // k(x, x) = signal_var exactly (se_kernel's |a|^2 + |b|^2 - 2ab need not give 0), as in add().
  K.diagonal().setConstant(hyper_.signal_var + diagonal_noise());
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  if (llt.info() != Eigen::Success || !llt.matrixLLT().diagonal().allFinite())
    throw std::runtime_error(
        "ExactGp: K + s2 I is not positive definite (n = " + std::to_string(n) +
        ", s2 = noise_var + jitter * signal_var = " + std::to_string(diagonal_noise()) + ")");
  L_.topLeftCorner(n, n) = llt.matrixL();
  beta_.head(n) = llt.matrixL().solve((y_.array() - options_.prior_mean).matrix());
}

void ExactGp::add(const Eigen::VectorXd& x, double y) {
  if (x.size() != dim_)
    throw std::invalid_argument("ExactGp::add: x must have " + std::to_string(dim_) +
                                " entries, got " + std::to_string(x.size()));
  if (!x.allFinite() || !std::isfinite(y))
    throw std::invalid_argument("ExactGp::add: x and y must be finite");
  const Eigen::Index n = n_;
  // New row of the factor: [L 0; l^T d] [L 0; l^T d]^T = [K+s2I k; k^T k(x,x)+s2].
  const Eigen::MatrixXd k = covariance(X_, x.transpose());
  Eigen::VectorXd l = k.col(0);
  if (n > 0) L_.topLeftCorner(n, n).triangularView<Eigen::Lower>().solveInPlace(l);
  const double d2 = hyper_.signal_var + diagonal_noise() - l.squaredNorm();
  if (!(d2 > 0.0) || !std::isfinite(d2))
    throw std::runtime_error("ExactGp::add: K + s2 I is not positive definite after adding point " +
                             std::to_string(n + 1) + " (Schur complement " + std::to_string(d2) +
                             ", s2 = " + std::to_string(diagonal_noise()) + ")");
  const double d = std::sqrt(d2);
  if (n + 1 > L_.rows()) {  // geometric growth: the copy costs amortised O(n) per add
    const Eigen::Index cap = grown_capacity(n + 1);
    L_.conservativeResizeLike(Eigen::MatrixXd::Zero(cap, cap));  // upper triangle stays 0
    beta_.conservativeResizeLike(Eigen::VectorXd::Zero(cap));
  }
  L_.row(n).head(n) = l.transpose();
  L_(n, n) = d;
  beta_[n] = (y - options_.prior_mean - l.dot(beta_.head(n))) / d;
  X_.conservativeResize(n + 1, Eigen::NoChange);
  X_.row(n) = x.transpose();
  y_.conservativeResize(n + 1);
  y_[n] = y;
  ++n_;
}

Eigen::VectorXd ExactGp::factor_row(int i) const {
  if (i < 0 || i >= n_)
    throw std::out_of_range("ExactGp::factor_row: row " + std::to_string(i) + " of " +
                            std::to_string(n_));
  return L_.row(i).head(i + 1).transpose();
}

double ExactGp::whitened_target(int i) const {
  if (i < 0 || i >= n_)
    throw std::out_of_range("ExactGp::whitened_target: entry " + std::to_string(i) + " of " +
                            std::to_string(n_));
  return beta_[i];
}

Eigen::MatrixXd ExactGp::solve_lower(const Eigen::MatrixXd& B) const {
  Eigen::MatrixXd V = B;
  L_.topLeftCorner(n_, n_).triangularView<Eigen::Lower>().solveInPlace(V);
  return V;
}

Prediction ExactGp::predict(const Eigen::MatrixXd& Xq) const {
  if (Xq.cols() != dim_)
    throw std::invalid_argument("ExactGp::predict: Xq must have " + std::to_string(dim_) +
                                " columns");
  const Eigen::Index m = Xq.rows();
  Prediction p{Eigen::VectorXd::Constant(m, options_.prior_mean),
               Eigen::VectorXd::Constant(m, hyper_.signal_var)};
  if (n_ == 0) return p;
  const auto beta = beta_.head(n_);
  for (Eigen::Index start = 0; start < m; start += kChunk) {
    const Eigen::Index c = std::min(kChunk, m - start);
    // One pass: V = L^-1 K(X, Xq) gives the mean V^T beta and the variance k - |v|^2.
    const Eigen::MatrixXd V = solve_lower(covariance(X_, Xq.middleRows(start, c)));
    p.mean.segment(start, c).noalias() += V.transpose() * beta;
    p.variance.segment(start, c) =
        (hyper_.signal_var - V.colwise().squaredNorm().transpose().array()).cwiseMax(0.0);
  }
  return p;
}

PointPrediction ExactGp::predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* grad_mean,
                                       Eigen::VectorXd* grad_var) const {
  if (x.size() != dim_)
    throw std::invalid_argument("ExactGp::predict_point: x must have " + std::to_string(dim_) +
                                " entries");
  PointPrediction p{options_.prior_mean, hyper_.signal_var};
  if (grad_mean) grad_mean->setZero(dim_);
  if (grad_var) grad_var->setZero(dim_);
  if (n_ == 0) return p;
  const Eigen::VectorXd k = covariance(X_, x.transpose()).col(0);
  const auto L = L_.topLeftCorner(n_, n_).triangularView<Eigen::Lower>();
  const Eigen::VectorXd v = L.solve(k);
  p.mean += v.dot(beta_.head(n_));
  const double var = hyper_.signal_var - v.squaredNorm();
  p.variance = std::max(var, 0.0);
  // SE: d k_i / dx = k_i (x_i - x) / l^2, so for weights w: d (w . k) / dx = sum_i w_i k_i
  // (x_i - x) / l^2. Any kernel of gp/kernel.hpp: d k_i / dx_c = s^2 g(r_i^2) (x_ic - x_c) / l_c^2
  // with g = gp::kernel_lengthscale_factor (dk/d(r^2) = -s^2 g / 2, d(r^2)/dx_c = 2 (x_c - x_ic) /
  // l_c^2); for SE, s^2 g = k_i.
  Eigen::VectorXd g;      // s^2 g(r_i^2), the general kernel's
  Eigen::ArrayXd inv_l2;  // 1 / l_c^2, the general kernel's
  if (kernel_ && (grad_mean || grad_var)) {
    const Eigen::VectorXd& ls = kernel_->lengthscales;
    inv_l2 = ls.size() == 1 ? Eigen::ArrayXd::Constant(dim_, 1.0 / (ls[0] * ls[0]))
                            : ls.array().square().inverse().eval();
    const Eigen::MatrixXd diff = gp::scale_inputs(X_.rowwise() - x.transpose(), ls);
    g.resize(n_);
    for (Eigen::Index i = 0; i < n_; ++i)
      g[i] = hyper_.signal_var *
             gp::kernel_lengthscale_factor(kernel_->family, diff.row(i).squaredNorm());
  }
  const double inv_l2_se = 1.0 / (hyper_.lengthscale * hyper_.lengthscale);
  auto grad_of = [&](const Eigen::VectorXd& w) -> Eigen::VectorXd {
    if (kernel_) {
      const Eigen::VectorXd wg = w.cwiseProduct(g);
      return (inv_l2 * (X_.transpose() * wg - wg.sum() * x).array()).matrix();
    }
    const Eigen::VectorXd wk = w.cwiseProduct(k);
    return inv_l2_se * (X_.transpose() * wk - wk.sum() * x);
  };
  if (grad_mean) *grad_mean = grad_of(L.transpose().solve(beta_.head(n_)));  // alpha = L^-T beta
  if (grad_var)
    *grad_var = var > 0.0 ? Eigen::VectorXd(-2.0 * grad_of(L.transpose().solve(v)))
                          : Eigen::VectorXd::Zero(dim_);  // clamped: flat
  return p;
}

JointPrediction ExactGp::predict_joint(const Eigen::MatrixXd& Xq) const {
  if (Xq.cols() != dim_)
    throw std::invalid_argument("ExactGp::predict_joint: Xq must have " + std::to_string(dim_) +
                                " columns");
  JointPrediction j;
  j.covariance = covariance(Xq, Xq);
  j.covariance.diagonal().setConstant(hyper_.signal_var);
  j.mean = Eigen::VectorXd::Constant(Xq.rows(), options_.prior_mean);
  if (n_ == 0 || Xq.rows() == 0) return j;
  const Eigen::MatrixXd V = solve_lower(covariance(X_, Xq));
  j.mean.noalias() += V.transpose() * beta_.head(n_);
  j.covariance.noalias() -= V.transpose() * V;
  j.covariance = 0.5 * (j.covariance + j.covariance.transpose()).eval();
  return j;
}

std::unique_ptr<Surrogate> ExactGp::clone() const { return std::make_unique<ExactGp>(*this); }

void ExactGp::set_hyper(const gp::SeHyper& hyper) {
  check_hyper(hyper, options_);
  ExactGp next(dim_, hyper, options_);
  next.X_ = X_;
  next.y_ = y_;
  next.n_ = n_;
  next.refactorise();
  *this = std::move(next);
}

void ExactGp::set_hyper(const gp::KernelHyper& hyper) {
  check_hyper(se_part(hyper), options_);
  ExactGp next(dim_, hyper, options_);
  next.X_ = X_;
  next.y_ = y_;
  next.n_ = n_;
  next.refactorise();
  *this = std::move(next);
}

void ExactGp::set_prior_mean(double prior_mean) {
  Options o = options_;
  o.prior_mean = prior_mean;
  check_hyper(hyper_, o);
  options_ = o;
  if (n_ > 0) beta_.head(n_) = solve_lower((y_.array() - prior_mean).matrix());
}

}  // namespace fbosim::surrogate

#include "datasets/landmine/logistic_regression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <Eigen/Cholesky>

namespace fbosim::datasets {

namespace {

constexpr int kMaxSteps = 100;

// log(1 + exp(-t)) without overflow.
double log1p_exp_neg(double t) {
  return t > 0 ? std::log1p(std::exp(-t)) : -t + std::log1p(std::exp(t));
}

double sigmoid(double t) {
  return t >= 0 ? 1 / (1 + std::exp(-t)) : std::exp(t) / (1 + std::exp(t));
}

Eigen::VectorXd signs(const std::vector<int>& y, Eigen::Index n) {
  if (static_cast<Eigen::Index>(y.size()) != n)
    throw std::invalid_argument(
        fmt::format("logistic regression: {} labels for {} rows", y.size(), n));
  Eigen::VectorXd s(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int v = y[static_cast<std::size_t>(i)];
    if (v != 1 && v != -1)
      throw std::invalid_argument(fmt::format("logistic regression: label {} is not +-1", v));
    s[i] = v;
  }
  return s;
}

}  // namespace

double logistic_objective(const Eigen::MatrixXd& x, const std::vector<int>& y, double lambda,
                          const Eigen::VectorXd& w) {
  const Eigen::VectorXd m = signs(y, x.rows()).cwiseProduct(x * w);  // margins y_i w^T x_i
  double loss = 0;
  for (Eigen::Index i = 0; i < m.size(); ++i) loss += log1p_exp_neg(m[i]);
  return lambda / 2 * w.squaredNorm() + loss / static_cast<double>(x.rows());
}

namespace {

// grad O_lambda(w) and the Hessian's data term's weights.
Eigen::VectorXd gradient(const Eigen::MatrixXd& x, const Eigen::VectorXd& s, double lambda,
                         const Eigen::VectorXd& w, Eigen::VectorXd* curvature) {
  const double n = static_cast<double>(x.rows());
  const Eigen::VectorXd m = s.cwiseProduct(x * w);
  Eigen::VectorXd coef(x.rows());
  if (curvature) curvature->resize(x.rows());
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    const double p = sigmoid(-m[i]);  // sigma(-y w^T x): the weight of the gradient
    coef[i] = -s[i] * p / n;
    if (curvature) (*curvature)[i] = p * (1 - p) / n;
  }
  return lambda * w + x.transpose() * coef;
}

}  // namespace

LogisticFit fit_logistic(const Eigen::MatrixXd& x, const std::vector<int>& y, double lambda,
                         double tolerance) {
  if (!(lambda > 0 && std::isfinite(lambda)))
    throw std::invalid_argument(
        fmt::format("logistic regression: lambda must be > 0, got {}", lambda));
  if (!(tolerance >= 0))
    throw std::invalid_argument(
        fmt::format("logistic regression: tolerance must be >= 0, got {}", tolerance));
  if (x.rows() < 1) throw std::invalid_argument("logistic regression: no training rows");
  const Eigen::VectorXd s = signs(y, x.rows());
  LogisticFit fit;
  fit.w = Eigen::VectorXd::Zero(x.cols());
  double value = logistic_objective(x, y, lambda, fit.w);
  Eigen::VectorXd curv;
  Eigen::VectorXd grad = gradient(x, s, lambda, fit.w, &curv);
  for (;; ++fit.iterations) {
    fit.gradient_norm = grad.norm();
    if (fit.gradient_norm <= tolerance) return fit;
    if (fit.iterations >= kMaxSteps)
      throw std::runtime_error(fmt::format(
          "logistic regression at lambda = {}: the gradient's norm is {:g} after {} Newton "
          "steps, above the tolerance {:g} that the privacy bound assumes",
          lambda, fit.gradient_norm, kMaxSteps, tolerance));
    Eigen::MatrixXd hess = x.transpose() * curv.asDiagonal() * x;
    hess.diagonal().array() += lambda;
    const Eigen::VectorXd step = hess.llt().solve(grad);
    // Halve the step until the objective decreases (Newton's step is a descent direction: the
    // Hessian is positive definite). Near the minimiser the decrease, about |grad|^2 / lambda,
    // falls below the objective's rounding: there a step that keeps the objective within
    // rounding and reduces the gradient's norm is taken (Newton's quadratic convergence).
    const double flat =
        64 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(value));
    double t = 1;
    for (int k = 0; k < 60; ++k, t /= 2) {
      const Eigen::VectorXd trial = fit.w - t * step;
      const double v = logistic_objective(x, y, lambda, trial);
      Eigen::VectorXd trial_curv;
      const Eigen::VectorXd trial_grad = gradient(x, s, lambda, trial, &trial_curv);
      if (v < value || (v <= value + flat && trial_grad.norm() < fit.gradient_norm)) {
        fit.w = trial;
        value = v;
        grad = trial_grad;
        curv = trial_curv;
        break;
      }
    }
  }
}

LogisticFeatures::LogisticFeatures(const Eigen::MatrixXd& train_x) {
  if (train_x.rows() < 1) throw std::invalid_argument("LogisticFeatures: no training rows");
  mean_ = train_x.colwise().mean();
  const Eigen::MatrixXd centred = train_x.rowwise() - mean_;
  scale_ = (centred.array().square().colwise().sum() / static_cast<double>(train_x.rows()))
               .sqrt()
               .matrix();
  for (Eigen::Index j = 0; j < scale_.size(); ++j)
    if (!(scale_[j] > 0)) scale_[j] = 1;  // a constant feature
}

Eigen::MatrixXd LogisticFeatures::map(const Eigen::MatrixXd& x) const {
  if (x.cols() != mean_.size())
    throw std::invalid_argument(
        fmt::format("LogisticFeatures: {} columns, fitted on {}", x.cols(), mean_.size()));
  const Eigen::Index d = x.cols();
  Eigen::MatrixXd out(x.rows(), d + 1);
  out.leftCols(d) = (x.rowwise() - mean_).array().rowwise() / scale_.array();
  out.col(d).setOnes();
  out /= std::sqrt(static_cast<double>(d + 1));
  for (Eigen::Index i = 0; i < out.rows(); ++i) {
    const double norm = out.row(i).stableNorm();  // no overflow for extreme records
    if (!out.row(i).allFinite() || !std::isfinite(norm))
      throw std::invalid_argument(fmt::format("LogisticFeatures: row {} is not finite", i));
    if (norm > 1) out.row(i) /= norm;  // projection onto the unit ball
  }
  return out;
}

double mean_true_label_probability(const Eigen::MatrixXd& x, const std::vector<int>& y,
                                   const Eigen::VectorXd& w) {
  const Eigen::VectorXd m = signs(y, x.rows()).cwiseProduct(x * w);
  double sum = 0;
  for (Eigen::Index i = 0; i < m.size(); ++i) sum += sigmoid(m[i]);
  return sum / static_cast<double>(x.rows());
}

}  // namespace fbosim::datasets

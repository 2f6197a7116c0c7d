#include "datasets/activity/softmax_regression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.hpp"

namespace fbosim::datasets {

template <typename Scalar>
SoftmaxRegressionT<Scalar>::SoftmaxRegressionT(int features, int classes) {
  if (features < 1 || classes < 2)
    throw std::invalid_argument("SoftmaxRegression: need features >= 1 and classes >= 2, got " +
                                std::to_string(features) + " and " + std::to_string(classes));
  w_ = Matrix::Zero(features, classes);
  b_ = Vector::Zero(classes);
}

template <typename Scalar>
void SoftmaxRegressionT<Scalar>::set_parameters(const Matrix& w, const Vector& b) {
  if (w.rows() != w_.rows() || w.cols() != w_.cols() || b.size() != b_.size())
    throw std::invalid_argument("SoftmaxRegression::set_parameters: wrong shapes");
  w_ = w;
  b_ = b;
}

template <typename Scalar>
void SoftmaxRegressionT<Scalar>::check_data(const Matrix& x, const Eigen::VectorXi& y) const {
  if (x.cols() != w_.rows() || x.rows() != y.size() || x.rows() == 0)
    throw std::invalid_argument("SoftmaxRegression: x must be n x " + std::to_string(w_.rows()) +
                                " with n = y.size() >= 1, got " + std::to_string(x.rows()) + " x " +
                                std::to_string(x.cols()) + " and " + std::to_string(y.size()) +
                                " labels");
  if (y.minCoeff() < 0 || y.maxCoeff() >= w_.cols())
    throw std::invalid_argument("SoftmaxRegression: labels must be in 0.." +
                                std::to_string(w_.cols() - 1));
}

template <typename Scalar>
template <typename Xm, typename Ym>
Scalar SoftmaxRegressionT<Scalar>::batch_gradient(const Xm& xm, const Ym& ym, Matrix& z,
                                                  Matrix& grad_w, Vector& grad_b) const {
  // Probabilities below eps^2 of the largest are set to 0: they are below the rounding of
  // every sum they enter, and left in they underflow to denormal numbers, which made one
  // evaluation 3x slower on x86.
  static const Scalar cut = 2 * std::log(std::numeric_limits<Scalar>::epsilon());
  const Eigen::Index m = xm.cols();
  auto zm = z.leftCols(m);
  zm.noalias() = w_.transpose() * xm;
  zm.colwise() += b_;
  Scalar nll = 0;
  for (Eigen::Index j = 0; j < m; ++j) {
    auto c = zm.col(j);
    c.array() -= c.maxCoeff();  // stable softmax: exp never overflows
    const Scalar zy = c(ym[j]);
    c = c.unaryExpr([](Scalar t) { return t > cut ? std::exp(t) : Scalar(0); });
    const Scalar sum = c.sum();  // >= 1: the maximum contributes exp(0)
    nll += std::log(sum) - zy;   // -log p(y|x) = logsumexp(z) - z_y
    c /= sum;
    c(ym[j]) -= 1;  // p_j - e_{y_j}
  }
  const Scalar inv_m = Scalar(1) / static_cast<Scalar>(m);
  grad_w.noalias() = inv_m * (xm * zm.transpose());
  grad_b.noalias() = inv_m * zm.rowwise().sum();
  return nll * inv_m;
}

template <typename Scalar>
double SoftmaxRegressionT<Scalar>::loss_and_gradient(const Matrix& x, const Eigen::VectorXi& y,
                                                     double l2, Matrix& grad_w,
                                                     Vector& grad_b) const {
  check_data(x, y);
  const Matrix xt = x.transpose();
  Matrix z(w_.cols(), x.rows());
  grad_w.resize(w_.rows(), w_.cols());
  grad_b.resize(w_.cols());
  const Scalar nll = batch_gradient(xt, y, z, grad_w, grad_b);
  grad_w += static_cast<Scalar>(l2) * w_;
  return static_cast<double>(nll) + 0.5 * l2 * static_cast<double>(w_.squaredNorm());
}

template <typename Scalar>
bool SoftmaxRegressionT<Scalar>::fit(const Matrix& x, const Eigen::VectorXi& y, const Options& o,
                                     core::RngStream& rng) {
  check_data(x, y);
  if (o.batch_size < 1 || o.epochs < 1 || !(o.learning_rate > 0) || !(o.l2 >= 0) ||
      !std::isfinite(o.learning_rate) || !std::isfinite(o.l2))
    throw std::invalid_argument(
        "SoftmaxRegression::fit: need batch_size >= 1, epochs >= 1, learning_rate > 0 and "
        "l2 >= 0, got " +
        std::to_string(o.batch_size) + ", " + std::to_string(o.epochs) + ", " +
        std::to_string(o.learning_rate) + ", " + std::to_string(o.l2));
  const Eigen::Index n = x.rows();
  const Eigen::Index d = w_.rows();
  const Eigen::Index k = w_.cols();
  const Eigen::Index batch = std::min<Eigen::Index>(o.batch_size, n);
  const Scalar rate = static_cast<Scalar>(o.learning_rate);
  const Scalar l2 = static_cast<Scalar>(o.l2);
  // One sample per column, so that gathering a minibatch copies contiguous columns.
  const Matrix xt = x.transpose();
  Matrix xb(d, batch), z(k, batch), grad_w(d, k), last_w = w_;
  Vector grad_b(k), last_b = b_;
  Eigen::VectorXi yb(batch);
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Eigen::Index{0});
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    // From the caller's stream: the same stream replays the same training.
    core::shuffle(order, rng);
    for (Eigen::Index start = 0; start < n; start += batch) {
      const Eigen::Index m = std::min(batch, n - start);
      for (Eigen::Index j = 0; j < m; ++j) {
        xb.col(j) = xt.col(order[start + j]);
        yb[j] = y[order[start + j]];
      }
      batch_gradient(xb.leftCols(m), yb.head(m), z, grad_w, grad_b);
      last_w = w_;
      last_b = b_;
      w_ -= rate * (grad_w + l2 * w_);
      b_ -= rate * grad_b;
      if (!w_.allFinite() || !b_.allFinite()) {
        w_ = last_w;
        b_ = last_b;
        return false;
      }
    }
  }
  return true;
}

template <typename Scalar>
Eigen::VectorXi SoftmaxRegressionT<Scalar>::predict(const Matrix& x) const {
  if (x.cols() != w_.rows())
    throw std::invalid_argument("SoftmaxRegression::predict: x must have " +
                                std::to_string(w_.rows()) + " columns, got " +
                                std::to_string(x.cols()));
  const Matrix z = (x * w_).rowwise() + b_.transpose();  // n x K
  Eigen::VectorXi out(x.rows());
  for (Eigen::Index i = 0; i < z.rows(); ++i) {
    Eigen::Index best = 0;
    for (Eigen::Index c = 1; c < z.cols(); ++c)
      if (z(i, c) > z(i, best)) best = c;
    out[i] = static_cast<int>(best);
  }
  return out;
}

template <typename Scalar>
double SoftmaxRegressionT<Scalar>::accuracy(const Matrix& x, const Eigen::VectorXi& y) const {
  check_data(x, y);
  return static_cast<double>((predict(x).array() == y.array()).count()) /
         static_cast<double>(y.size());
}

template class SoftmaxRegressionT<float>;
template class SoftmaxRegressionT<double>;

}  // namespace fbosim::datasets

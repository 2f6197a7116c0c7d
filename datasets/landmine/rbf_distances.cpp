#include "datasets/landmine/rbf_distances.hpp"

#include <stdexcept>

namespace fbosim::datasets {

namespace {

std::vector<double> row_major(const Eigen::MatrixXd& x) {
  std::vector<double> out(static_cast<std::size_t>(x.size()));
  for (Eigen::Index r = 0; r < x.rows(); ++r)
    for (Eigen::Index k = 0; k < x.cols(); ++k)
      out[static_cast<std::size_t>(r * x.cols() + k)] = x(r, k);
  return out;
}

// Kernel::dot: sum += x_k * z_k over the features in order.
double dot(const double* x, const double* z, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) sum += x[k] * z[k];
  return sum;
}

// Kernel::k_function (RBF): diff = x_k - z_k; sum += diff * diff over the features in order.
double squared_difference(const double* x, const double* z, std::size_t d) {
  double sum = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const double diff = x[k] - z[k];
    sum += diff * diff;
  }
  return sum;
}

}  // namespace

RbfDistances::RbfDistances(const Eigen::MatrixXd& train, const Eigen::MatrixXd& valid)
    : n_(static_cast<int>(train.rows())), m_(static_cast<int>(valid.rows())) {
  if (valid.cols() != train.cols())
    throw std::invalid_argument("RbfDistances: training and validation dimensions differ");
  const auto n = static_cast<std::size_t>(n_), m = static_cast<std::size_t>(m_);
  const auto d = static_cast<std::size_t>(train.cols());
  const std::vector<double> x = row_major(train), v = row_major(valid);
  std::vector<double> square(n);
  for (std::size_t r = 0; r < n; ++r) square[r] = dot(&x[r * d], &x[r * d], d);
  train_rbf_.resize(n * (n + 1) / 2);
  train_diff_.resize(n * (n + 1) / 2);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c <= r; ++c) {
      // kernel_rbf: x_square[i] + x_square[j] - 2 * dot(x[i], x[j]).
      train_rbf_[packed(r, c)] = square[r] + square[c] - 2 * dot(&x[r * d], &x[c * d], d);
      train_diff_[packed(r, c)] = squared_difference(&x[r * d], &x[c * d], d);
    }
  valid_diff_.resize(n * m);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t i = 0; i < m; ++i)
      valid_diff_[c * m + i] = squared_difference(&v[i * d], &x[c * d], d);
}

}  // namespace fbosim::datasets

#include "datasets/landmine/precomputed_rbf.hpp"

#include <svm.h>

#include <cmath>
#include <stdexcept>

namespace fbosim::datasets {

PrecomputedRbf::PrecomputedRbf(const Eigen::MatrixXd& train, double gamma)
    : n_(static_cast<int>(train.rows())), d_(static_cast<int>(train.cols())), gamma_(gamma) {
  if (!(gamma > 0)) throw std::invalid_argument("PrecomputedRbf: gamma must be > 0");
  const auto n = static_cast<std::size_t>(n_), d = static_cast<std::size_t>(d_);
  x_.resize(n * d);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t k = 0; k < d; ++k)
      x_[r * d + k] = train(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(k));
  // libsvm's Kernel::dot: sum += px->value * py->value over the features in index order.
  const auto dot = [&](std::size_t a, std::size_t b) {
    double sum = 0;
    for (std::size_t k = 0; k < d; ++k) sum += x_[a * d + k] * x_[b * d + k];
    return sum;
  };
  std::vector<double> square(n);
  for (std::size_t r = 0; r < n; ++r) square[r] = dot(r, r);
  train_.resize(n * width());
  for (std::size_t r = 0; r < n; ++r) {
    svm_node* row = &train_[r * width()];
    row[0] = {0, static_cast<double>(r + 1)};
    row[n + 1] = {-1, 0.0};
    for (std::size_t c = 0; c <= r; ++c) {
      // Kernel::kernel_rbf: exp(-gamma*(x_square[i]+x_square[j]-2*dot(x[i],x[j]))), which is
      // symmetric in i and j bit for bit (+ and * commute, the sum's order is fixed).
      const double k = std::exp(-gamma_ * (square[r] + square[c] - 2 * dot(r, c)));
      row[c + 1] = {static_cast<int>(c + 1), k};
      train_[c * width() + r + 1] = {static_cast<int>(r + 1), k};
    }
  }
}

const std::vector<svm_node*>& PrecomputedRbf::prediction_rows(const Eigen::MatrixXd& points,
                                                              const std::vector<int>& rows,
                                                              const svm_model& model) {
  if (points.cols() != d_)
    throw std::invalid_argument("PrecomputedRbf: points must have the training dimension");
  const auto n = static_cast<std::size_t>(n_), d = static_cast<std::size_t>(d_);
  predict_.resize(rows.size() * width());
  predict_rows_.resize(rows.size());
  std::vector<double> p(d);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    svm_node* row = &predict_[i * width()];
    predict_rows_[i] = row;
    for (std::size_t c = 0; c <= n; ++c) row[c] = {static_cast<int>(c), 0.0};
    row[n + 1] = {-1, 0.0};
    for (std::size_t k = 0; k < d; ++k) p[k] = points(rows[i], static_cast<Eigen::Index>(k));
    for (int s = 0; s < model.l; ++s) {
      // The support vector's serial number (1-based) indexes the training inputs and the row.
      const auto c = static_cast<std::size_t>(model.SV[s][0].value);
      // Kernel::k_function for RBF: d = x->value - y->value; sum += d*d; exp(-sum*gamma).
      double sum = 0;
      for (std::size_t k = 0; k < d; ++k) {
        const double diff = p[k] - x_[(c - 1) * d + k];
        sum += diff * diff;
      }
      row[c].value = std::exp(-sum * gamma_);
    }
  }
  return predict_rows_;
}

}  // namespace fbosim::datasets

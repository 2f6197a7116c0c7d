#include "datasets/landmine/precomputed_rbf.hpp"

#include <svm.h>

#include <cmath>
#include <stdexcept>

namespace fbosim::datasets {

PrecomputedRbf::PrecomputedRbf(const RbfDistances& d, double gamma)
    : d_(d), n_(d.train_size()), gamma_(gamma) {
  if (!(gamma > 0)) throw std::invalid_argument("PrecomputedRbf: gamma must be > 0");
  const auto n = static_cast<std::size_t>(n_);
  train_.resize(n * width());
  for (std::size_t r = 0; r < n; ++r) {
    svm_node* row = &train_[r * width()];
    row[0] = {0, static_cast<double>(r + 1)};
    row[n + 1] = {-1, 0.0};
    for (std::size_t c = 0; c <= r; ++c) {
      // Kernel::kernel_rbf: exp(-gamma*(x_square[i]+x_square[j]-2*dot(x[i],x[j]))).
      const double k = std::exp(-gamma_ * d_.train_rbf()[RbfDistances::packed(r, c)]);
      row[c + 1] = {static_cast<int>(c + 1), k};
      train_[c * width() + r + 1] = {static_cast<int>(r + 1), k};
    }
  }
}

const std::vector<svm_node*>& PrecomputedRbf::prediction_rows(Points which,
                                                              const std::vector<int>& rows,
                                                              const svm_model& model) {
  const auto n = static_cast<std::size_t>(n_), m = static_cast<std::size_t>(d_.valid_size());
  predict_.resize(rows.size() * width());
  predict_rows_.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    svm_node* row = &predict_[i * width()];
    predict_rows_[i] = row;
    for (std::size_t c = 0; c <= n; ++c) row[c] = {static_cast<int>(c), 0.0};
    row[n + 1] = {-1, 0.0};
    const auto p = static_cast<std::size_t>(rows[i]);
    for (int s = 0; s < model.l; ++s) {
      // The support vector's serial number (1-based) indexes the training points and the row.
      const auto c = static_cast<std::size_t>(model.SV[s][0].value);
      // Kernel::k_function for RBF: exp(-gamma*sum) of the squared differences.
      const double sum = which == Points::validation ? d_.valid_diff()[(c - 1) * m + p]
                         : p >= c - 1 ? d_.train_diff()[RbfDistances::packed(p, c - 1)]
                                      : d_.train_diff()[RbfDistances::packed(c - 1, p)];
      row[c].value = std::exp(-sum * gamma_);
    }
  }
  return predict_rows_;
}

}  // namespace fbosim::datasets

#include "datasets/landmine/libsvm_svc.hpp"

#include <svm.h>

#include <memory>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::datasets {

namespace {

void quiet(const char*) {}

// libsvm's sparse rows (index 1..d, then -1) for the rows `rows` of x.
class SvmRows {
 public:
  SvmRows(const Eigen::MatrixXd& x, const std::vector<int>& rows)
      : nodes_(rows.size() * (static_cast<std::size_t>(x.cols()) + 1)) {
    const auto d = static_cast<std::size_t>(x.cols());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      svm_node* row = &nodes_[r * (d + 1)];
      for (std::size_t j = 0; j < d; ++j)
        row[j] = {static_cast<int>(j + 1), x(rows[r], static_cast<Eigen::Index>(j))};
      row[d] = {-1, 0.0};
      pointers_.push_back(row);
    }
  }
  svm_node** data() { return pointers_.data(); }

 private:
  std::vector<svm_node> nodes_;
  std::vector<svm_node*> pointers_;
};

struct ModelDeleter {
  void operator()(svm_model* m) const { svm_free_and_destroy_model(&m); }
};

}  // namespace

std::vector<double> libsvm_rbf_decisions(const Eigen::MatrixXd& x, const std::vector<int>& y,
                                         const std::vector<int>& fit, int first, double c,
                                         double gamma, const Eigen::MatrixXd& points,
                                         const std::vector<int>& rows) {
  static std::once_flag silence;
  std::call_once(silence, [] { svm_set_print_string_function(&quiet); });
  SvmRows nodes(x, fit);  // libsvm's model points into these rows
  std::vector<double> labels(fit.size());
  for (std::size_t r = 0; r < fit.size(); ++r) labels[r] = y[fit[r]] == first ? 1.0 : -1.0;
  svm_problem problem{static_cast<int>(fit.size()), labels.data(), nodes.data()};
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = RBF;
  p.gamma = gamma;
  p.C = c;
  p.cache_size = 16;  // MB; the kernel matrix of ~350 rows is 0.5 MB
  p.eps = 1e-3;       // libsvm's and scikit-learn's default tolerance
  p.shrinking = 1;
  p.probability = 0;
  if (const char* err = svm_check_parameter(&problem, &p))
    throw std::invalid_argument(fmt::format("libsvm: {}", err));
  const std::unique_ptr<svm_model, ModelDeleter> model(svm_train(&problem, &p));
  // libsvm's decision values are for its first label; with labels +-1 it puts +1 first
  // (svm_group_classes), whatever the order of the rows.
  int order[2] = {1, 1};
  svm_get_labels(model.get(), order);
  const double sign = order[0] == 1 ? 1.0 : -1.0;
  SvmRows scored(points, rows);
  std::vector<double> out(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double value = 0;
    svm_predict_values(model.get(), scored.data()[r], &value);
    out[r] = sign * value;
  }
  return out;
}

}  // namespace fbosim::datasets

#include "datasets/landmine/landmine_objective.hpp"

#include <svm.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "datasets/landmine/platt_scaling.hpp"
#include "datasets/landmine/precomputed_rbf.hpp"
#include "datasets/landmine/roc_auc.hpp"
#include "datasets/score_objective.hpp"
#include "sim/core/cancellation.hpp"

namespace fbosim::datasets {

namespace {

void quiet(const char*) {}

// libsvm's sparse rows (index 1..9, then -1) for the rows `rows` of x.
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
  const svm_node* row(std::size_t r) const { return pointers_[r]; }

 private:
  std::vector<svm_node> nodes_;
  std::vector<svm_node*> pointers_;
};

struct ModelDeleter {
  void operator()(svm_model* m) const { svm_free_and_destroy_model(&m); }
};
using Model = std::unique_ptr<svm_model, ModelDeleter>;

// Trains C-SVC on the given rows (nodes[r]: libsvm's row of rows[r], features for kernel_type
// RBF, kernel values for PRECOMPUTED); labels 1 (mine) -> +1, 0 -> -1.
Model train(const std::vector<int>& y, const std::vector<int>& rows, const SvmHyperparameters& h,
            int kernel_type, svm_node** nodes) {
  std::vector<double> labels(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) labels[r] = y[rows[r]] == 1 ? 1.0 : -1.0;
  svm_problem problem{static_cast<int>(rows.size()), labels.data(), nodes};
  svm_parameter p{};
  p.svm_type = C_SVC;
  p.kernel_type = kernel_type;
  p.gamma = h.gamma;
  p.C = h.c;
  p.cache_size = 16;  // MB; the kernel matrix of ~350 rows is 0.5 MB
  p.eps = 1e-3;       // libsvm's and scikit-learn's default tolerance
  p.shrinking = 1;
  p.probability = 0;
  if (const char* err = svm_check_parameter(&problem, &p))
    throw std::invalid_argument(fmt::format("libsvm: {}", err));
  return Model(svm_train(&problem, &p));
}

// Decision values oriented so that larger means "mine" (libsvm's are for its first label).
std::vector<double> decisions(const svm_model* m, const svm_node* const* rows, std::size_t count) {
  int labels[2] = {1, 1};
  svm_get_labels(m, labels);
  const double sign = labels[0] == 1 ? 1.0 : -1.0;
  std::vector<double> out(count);
  for (std::size_t r = 0; r < count; ++r) {
    double value = 0;
    svm_predict_values(m, rows[r], &value);
    out[r] = sign * value;
  }
  return out;
}

// One evaluation's SVMs, trained and queried through libsvm with the kernel given either as
// features (kernel_type RBF: libsvm computes every entry in every training) or precomputed once
// (PrecomputedRbf: the same values).
class SvmRunner {
 public:
  SvmRunner(const LandmineSplit& s, const SvmHyperparameters& h, SvmKernel kernel)
      : s_(s), h_(h), kernel_(kernel) {
    if (kernel_ == SvmKernel::precomputed) rbf_.emplace(s.train_x, h.gamma);
  }
  // Trains on the training rows `fit`.
  Model train(const std::vector<int>& fit) {
    if (kernel_ == SvmKernel::rbf) {
      fit_nodes_.emplace(s_.train_x, fit);
      return datasets::train(s_.train_y, fit, h_, RBF, fit_nodes_->data());
    }
    std::vector<svm_node*> rows;
    for (int r : fit) rows.push_back(rbf_->training_row(r));
    return datasets::train(s_.train_y, fit, h_, PRECOMPUTED, rows.data());
  }
  // Decision values of the model m (trained by train()) at the rows `rows` of x.
  std::vector<double> decide(const svm_model* m, const Eigen::MatrixXd& x,
                             const std::vector<int>& rows) {
    if (kernel_ == SvmKernel::rbf) {
      const SvmRows nodes(x, rows);
      std::vector<const svm_node*> r;
      for (std::size_t i = 0; i < rows.size(); ++i) r.push_back(nodes.row(i));
      return decisions(m, r.data(), rows.size());
    }
    return decisions(m, rbf_->prediction_rows(x, rows, *m).data(), rows.size());
  }

 private:
  const LandmineSplit& s_;
  SvmHyperparameters h_;
  SvmKernel kernel_;
  std::optional<PrecomputedRbf> rbf_;
  std::optional<SvmRows> fit_nodes_;  // RBF: the rows of the latest model (libsvm points into them)
};

std::vector<int> all_rows(Eigen::Index n) {
  std::vector<int> r(static_cast<std::size_t>(n));
  std::iota(r.begin(), r.end(), 0);
  return r;
}

void shuffle(std::vector<int>& v, core::RngStream& rng) {  // Fisher-Yates
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.uniform_int(i)]);
}

class LandmineObjective final : public ScoreObjective {
 public:
  LandmineObjective(std::shared_ptr<const LandmineSplit> split, int field, int folds)
      : ScoreObjective(2, "landmine.evaluate", field), split_(std::move(split)), folds_(folds) {}

 protected:
  double score(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return landmine_auc(*split_, x, folds_, rng);
  }

 private:
  std::shared_ptr<const LandmineSplit> split_;
  int folds_;
};

}  // namespace

LandmineSplit split_field(const LandmineField& field, std::uint64_t seed, int field_index) {
  core::RngStream rng = core::RngFactory(seed, 0).stream("landmine.split", field_index);
  std::vector<int> train, valid;
  for (int label : {0, 1}) {
    std::vector<int> rows;
    for (std::size_t r = 0; r < field.y.size(); ++r)
      if (field.y[r] == label) rows.push_back(static_cast<int>(r));
    shuffle(rows, rng);
    const std::size_t half = rows.size() / 2;
    train.insert(train.end(), rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(half));
    valid.insert(valid.end(), rows.begin() + static_cast<std::ptrdiff_t>(half), rows.end());
  }
  std::sort(train.begin(), train.end());
  std::sort(valid.begin(), valid.end());
  LandmineSplit s;
  s.train_x = field.x(train, Eigen::all);
  s.valid_x = field.x(valid, Eigen::all);
  for (int r : train) s.train_y.push_back(field.y[r]);
  for (int r : valid) s.valid_y.push_back(field.y[r]);
  return s;
}

SvmHyperparameters SvmHyperparameters::from_unit(const Eigen::VectorXd& x) {
  if (x.size() != 2 || !(x.array() >= 0).all() || !(x.array() <= 1).all())
    throw std::invalid_argument(fmt::format("landmine: x must be a point of [0,1]^2, got [{}]",
                                            fmt::join(x.data(), x.data() + x.size(), ", ")));
  return {1e-4 + x[0] * (10 - 1e-4), 0.01 + x[1] * (10 - 0.01)};
}

double landmine_auc(const LandmineSplit& s, const Eigen::VectorXd& x, int cv_folds,
                    core::RngStream& rng, SvmKernel kernel, SvmDecisions* decisions) {
  static std::once_flag silence;
  std::call_once(silence, [] { svm_set_print_string_function(&quiet); });
  const SvmHyperparameters h = SvmHyperparameters::from_unit(x);
  const auto n = static_cast<std::size_t>(s.train_x.rows());
  SvmRunner svm(s, h, kernel);
  // Platt's sigmoid from held-out decision values of cv_folds fold models (libsvm's
  // svm_binary_svc_probability, with our stream instead of rand()).
  std::vector<int> perm = all_rows(s.train_x.rows());
  shuffle(perm, rng);
  std::vector<double> held_out(n);
  for (int k = 0; k < cv_folds; ++k) {
    const std::size_t begin = k * n / cv_folds, end = (k + 1) * n / cv_folds;
    std::vector<int> fit, test;
    for (std::size_t i = 0; i < n; ++i) (i >= begin && i < end ? test : fit).push_back(perm[i]);
    int positives = 0;
    for (int r : fit) positives += s.train_y[r];
    std::vector<double> d(test.size(), 0.0);
    if (positives == 0 || positives == static_cast<int>(fit.size())) {
      // One class only: libsvm sets the decision values to +-1 likewise.
      d.assign(test.size(), positives > 0 ? 1.0 : -1.0);
    } else {
      const Model m = svm.train(fit);
      d = svm.decide(m.get(), s.train_x, test);
    }
    for (std::size_t i = 0; i < test.size(); ++i) held_out[begin + i] = d[i];
  }
  std::vector<int> perm_labels(n);
  for (std::size_t i = 0; i < n; ++i) perm_labels[i] = s.train_y[perm[i]];
  const PlattSigmoid sigmoid = fit_platt(held_out, perm_labels);

  const Model model = svm.train(all_rows(s.train_x.rows()));
  const std::vector<double> f = svm.decide(model.get(), s.valid_x, all_rows(s.valid_x.rows()));
  std::vector<double> p(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) p[i] = sigmoid.probability(f[i]);
  if (decisions) *decisions = {held_out, f};
  return roc_auc(p, s.valid_y);
}

LandmineFamily::LandmineFamily(const LandmineSpec& spec) : spec_(spec) {
  if (spec.cv_folds < 2)
    throw std::invalid_argument(
        fmt::format("objective.cv_folds: must be >= 2, got {}", spec.cv_folds));
  const std::vector<LandmineField> fields = load_landmine(spec.path);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    core::throw_if_cancelled();  // each split fits a cross-validated sigmoid
    splits_.push_back(std::make_shared<const LandmineSplit>(
        split_field(fields[i], spec.split_seed, static_cast<int>(i))));
  }
}

std::vector<std::shared_ptr<const Objective>> LandmineFamily::make(int agents,
                                                                   const core::RngFactory&) const {
  if (agents < 1 || agents > max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: landmine has {} fields, got {}", max_agents(), agents));
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<LandmineObjective>(splits_[n], n, spec_.cv_folds));
  return out;
}

}  // namespace fbosim::datasets

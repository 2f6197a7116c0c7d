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
// RBF, kernel values for PRECOMPUTED); labels `first` -> +1, the other class -> -1. libsvm keeps
// the rows' order within each class and, for labels +-1, makes +1 its first class whatever
// the order of the rows (svm_group_classes).
Model train(const std::vector<int>& y, const std::vector<int>& rows, const SvmHyperparameters& h,
            int kernel_type, svm_node** nodes, int first) {
  std::vector<double> labels(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) labels[r] = y[rows[r]] == first ? 1.0 : -1.0;
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

// Decision values oriented so that larger means the class labelled +1 (libsvm's are for its
// first label).
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
// (PrecomputedRbf: the same values, from the split's gamma-free distances).
class SvmRunner {
 public:
  using Points = PrecomputedRbf::Points;
  SvmRunner(const LandmineSplit& s, const SvmHyperparameters& h, SvmKernel kernel)
      : s_(s), h_(h), kernel_(kernel) {
    if (kernel_ != SvmKernel::precomputed) return;
    distances_ = s.distances;
    if (!distances_) distances_ = std::make_shared<const RbfDistances>(s.train_x, s.valid_x);
    rbf_.emplace(*distances_, h.gamma);
  }
  // Trains on the training rows `fit` (in that order), class `first` labelled +1.
  Model train(const std::vector<int>& fit, int first) {
    if (kernel_ == SvmKernel::rbf) {
      fit_nodes_.emplace(s_.train_x, fit);
      return datasets::train(s_.train_y, fit, h_, RBF, fit_nodes_->data(), first);
    }
    std::vector<svm_node*> rows;
    for (int r : fit) rows.push_back(rbf_->training_row(r));
    return datasets::train(s_.train_y, fit, h_, PRECOMPUTED, rows.data(), first);
  }
  // Decision values of the model m (trained by train()) at the rows `rows` of the training or
  // validation points.
  std::vector<double> decide(const svm_model* m, Points which, const std::vector<int>& rows) {
    if (kernel_ == SvmKernel::rbf) {
      const SvmRows nodes(which == Points::training ? s_.train_x : s_.valid_x, rows);
      std::vector<const svm_node*> r;
      for (std::size_t i = 0; i < rows.size(); ++i) r.push_back(nodes.row(i));
      return decisions(m, r.data(), rows.size());
    }
    return decisions(m, rbf_->prediction_rows(which, rows, *m).data(), rows.size());
  }

 private:
  const LandmineSplit& s_;
  SvmHyperparameters h_;
  SvmKernel kernel_;
  std::shared_ptr<const RbfDistances> distances_;
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
  LandmineObjective(std::shared_ptr<const LandmineSplit> split, int field, SvmOptions svm)
      : ScoreObjective(2, "landmine.evaluate", field), split_(std::move(split)), svm_(svm) {}

 protected:
  double score(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return landmine_auc(*split_, x, svm_, rng);
  }

 private:
  std::shared_ptr<const LandmineSplit> split_;
  SvmOptions svm_;
};

// Held-out decision values of cv_folds fold models on the training half, oriented towards
// mine: perm (training rows) is cut into cv_folds consecutive blocks; the model of block k is
// trained on the other rows in perm's order, mine first (plain libsvm with +1 = mine, and
// scikit-learn's fold models, whose +-1 labels its libsvm sorts). out[i]: perm[i]'s value.
std::vector<double> fold_decisions(SvmRunner& svm, const LandmineSplit& s,
                                   const std::vector<int>& perm, int cv_folds) {
  const std::size_t n = perm.size();
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
      const Model m = svm.train(fit, 1);
      d = svm.decide(m.get(), SvmRunner::Points::training, test);
    }
    for (std::size_t i = 0; i < test.size(); ++i) held_out[begin + i] = d[i];
  }
  return held_out;
}

// P(first class) from the final model's decision value f (oriented towards that class).
double first_class_probability(const PlattSigmoid& sigmoid, double f, SvmProbability p) {
  if (p == SvmProbability::sigmoid) return sigmoid.probability(f);
  // scikit-learn's predict_proba (its libsvm's svm_predict_probability): the sigmoid clipped
  // to [1e-7, 1 - 1e-7] as the pairwise probability r_01, r_10 = 1 - r_01, then coupled.
  constexpr double kMinProb = 1e-7;
  const double r01 = std::min(std::max(sigmoid.probability(f), kMinProb), 1 - kMinProb);
  return pairwise_coupling({{0.0, r01}, {1 - r01, 0.0}})[0];
}

}  // namespace

SvmClassOrder parse_class_order(const std::string& s) {
  if (s == "mine_first") return SvmClassOrder::mine_first;
  if (s == "sklearn") return SvmClassOrder::sklearn;
  throw std::invalid_argument("must be mine_first or sklearn, got '" + s + "'");
}

std::string to_string(SvmClassOrder o) {
  return o == SvmClassOrder::mine_first ? "mine_first" : "sklearn";
}

SvmProbability parse_probability(const std::string& s) {
  if (s == "sigmoid") return SvmProbability::sigmoid;
  if (s == "sklearn") return SvmProbability::sklearn;
  throw std::invalid_argument("must be sigmoid or sklearn, got '" + s + "'");
}

std::string to_string(SvmProbability p) {
  return p == SvmProbability::sigmoid ? "sigmoid" : "sklearn";
}

SvmHyperparameters SvmHyperparameters::from_unit(const Eigen::VectorXd& x) {
  if (x.size() != 2 || !(x.array() >= 0).all() || !(x.array() <= 1).all())
    throw std::invalid_argument(fmt::format("landmine: x must be a point of [0,1]^2, got [{}]",
                                            fmt::join(x.data(), x.data() + x.size(), ", ")));
  return {1e-4 + x[0] * (10 - 1e-4), 0.01 + x[1] * (10 - 0.01)};
}

std::vector<int> problem_rows(const LandmineSplit& s, SvmClassOrder order) {
  std::vector<int> rows = all_rows(s.train_x.rows());
  if (order == SvmClassOrder::sklearn)
    std::stable_partition(rows.begin(), rows.end(), [&](int r) { return s.train_y[r] == 0; });
  return rows;
}

double landmine_auc(const LandmineSplit& s, const Eigen::VectorXd& x, const SvmOptions& o,
                    core::RngStream& rng, SvmKernel kernel, SvmDecisions* decisions) {
  std::vector<int> perm = problem_rows(s, o.class_order);
  shuffle(perm, rng);
  return landmine_auc(s, x, o, perm, kernel, decisions);
}

double landmine_auc(const LandmineSplit& s, const Eigen::VectorXd& x, const SvmOptions& o,
                    const std::vector<int>& perm, SvmKernel kernel, SvmDecisions* decisions) {
  static std::once_flag silence;
  std::call_once(silence, [] { svm_set_print_string_function(&quiet); });
  const SvmHyperparameters h = SvmHyperparameters::from_unit(x);
  const auto n = static_cast<std::size_t>(s.train_x.rows());
  if (perm.size() != n)
    throw std::invalid_argument("landmine_auc: perm must hold every training row once");
  SvmRunner svm(s, h, kernel);
  const bool sklearn_order = o.class_order == SvmClassOrder::sklearn;
  const std::vector<int> rows = problem_rows(s, o.class_order);
  // Platt's sigmoid from held-out decision values of cv_folds fold models (libsvm's
  // svm_binary_svc_probability, with our stream instead of its generator).
  std::vector<double> held_out = fold_decisions(svm, s, perm, o.cv_folds);
  std::vector<int> platt_labels(n);  // 1: the final model's first class
  if (!sklearn_order) {
    for (std::size_t i = 0; i < n; ++i) platt_labels[i] = s.train_y[perm[i]];
  } else {
    // scikit-learn turns the fold values towards its first class (no mine) and fits the
    // sigmoid over the problem's rows in their order.
    std::vector<double> by_row(n);
    for (std::size_t i = 0; i < n; ++i) by_row[perm[i]] = -held_out[i];
    for (std::size_t i = 0; i < n; ++i) {
      held_out[i] = by_row[rows[i]];
      platt_labels[i] = s.train_y[rows[i]] == 0 ? 1 : 0;
    }
  }
  const PlattSigmoid sigmoid = fit_platt(held_out, platt_labels);

  const int first = sklearn_order ? 0 : 1;
  const Model model = svm.train(rows, first);
  const std::vector<double> f =
      svm.decide(model.get(), SvmRunner::Points::validation, all_rows(s.valid_x.rows()));
  std::vector<double> p(f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double p_first = first_class_probability(sigmoid, f[i], o.probability);
    p[i] = first == 1 ? p_first : 1 - p_first;  // P(mine): predict_proba(X)[:, 1]
  }
  if (decisions) *decisions = {held_out, f, p};
  return roc_auc(p, s.valid_y);
}

LandmineFamily::LandmineFamily(const LandmineSpec& spec) : spec_(spec) {
  if (spec.svm.cv_folds < 2)
    throw std::invalid_argument(
        fmt::format("objective.cv_folds: must be >= 2, got {}", spec.svm.cv_folds));
  const std::vector<LandmineField> fields = load_landmine(spec.path);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    core::throw_if_cancelled();  // each split fits a cross-validated sigmoid
    splits_.push_back(std::make_shared<const LandmineSplit>(
        spec.split == LandmineSplitKind::authors
            ? authors_split(fields[i])
            : split_field(fields[i], spec.split_seed, static_cast<int>(i))));
  }
}

std::vector<std::shared_ptr<const Objective>> LandmineFamily::make(int agents,
                                                                   const core::RngFactory&) const {
  if (agents < 1 || agents > max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: landmine has {} fields, got {}", max_agents(), agents));
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<LandmineObjective>(splits_[n], n, spec_.svm));
  return out;
}

}  // namespace fbosim::datasets

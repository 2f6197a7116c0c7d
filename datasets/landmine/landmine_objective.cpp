#include "datasets/landmine/landmine_objective.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/cancellation.hpp"
#include "core/rng.hpp"
#include "datasets/landmine/libsvm_svc.hpp"
#include "datasets/landmine/platt_scaling.hpp"
#include "datasets/landmine/rbf_kernels.hpp"
#include "datasets/landmine/roc_auc.hpp"
#include "datasets/score_objective.hpp"

namespace fbosim::datasets {

namespace {

// One evaluation's SVMs: trained on training rows and scored at training or validation points,
// by fbosim (RbfKernels from the split's gamma-free distances, train_svc) or by libsvm itself.
class SvmRunner {
 public:
  using Points = RbfKernels::Points;
  SvmRunner(const LandmineSplit& s, const SvmHyperparameters& h, SvmEngine engine)
      : s_(s), h_(h), engine_(engine) {
    if (engine_ == SvmEngine::libsvm) return;
    distances_ = s.distances;
    if (!distances_) distances_ = std::make_shared<const RbfDistances>(s.train_x, s.valid_x);
    kernels_.emplace(*distances_, h.gamma,
                     engine_ == SvmEngine::fbosim ? KernelExp::vector : KernelExp::std);
  }
  // Trains on the training rows `fit` (in that order), class `first` labelled +1, and returns
  // the decision values (oriented towards `first`) at the rows `rows` of `which`.
  std::vector<double> decide(const std::vector<int>& fit, int first, Points which,
                             const std::vector<int>& rows) {
    if (engine_ == SvmEngine::libsvm)
      return libsvm_rbf_decisions(s_.train_x, s_.train_y, fit, first, h_.c, h_.gamma,
                                  which == Points::training ? s_.train_x : s_.valid_x, rows);
    std::vector<int> labels(fit.size());
    for (std::size_t r = 0; r < fit.size(); ++r) labels[r] = s_.train_y[fit[r]] == first ? 1 : -1;
    const SvcModel model = train_svc(kernels_->training(), fit, labels, h_.c);
    return kernels_->decisions(model, which, rows);
  }

 private:
  const LandmineSplit& s_;
  SvmHyperparameters h_;
  SvmEngine engine_;
  std::shared_ptr<const RbfDistances> distances_;
  std::optional<RbfKernels> kernels_;
};

std::vector<int> all_rows(Eigen::Index n) {
  std::vector<int> r(static_cast<std::size_t>(n));
  std::iota(r.begin(), r.end(), 0);
  return r;
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
      d = svm.decide(fit, 1, SvmRunner::Points::training, test);
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

SvmClassOrder parse_class_order(const std::string& s) { return kSvmClassOrderNames.parse(s); }

std::string to_string(SvmClassOrder o) { return kSvmClassOrderNames.name(o); }

SvmProbability parse_probability(const std::string& s) { return kSvmProbabilityNames.parse(s); }

std::string to_string(SvmProbability p) { return kSvmProbabilityNames.name(p); }

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
                    core::RngStream& rng, SvmEngine engine, SvmDecisions* decisions) {
  std::vector<int> perm = problem_rows(s, o.class_order);
  core::shuffle(perm, rng);
  return landmine_auc(s, x, o, perm, engine, decisions);
}

double landmine_auc(const LandmineSplit& s, const Eigen::VectorXd& x, const SvmOptions& o,
                    const std::vector<int>& perm, SvmEngine engine, SvmDecisions* decisions) {
  const SvmHyperparameters h = SvmHyperparameters::from_unit(x);
  const auto n = static_cast<std::size_t>(s.train_x.rows());
  if (perm.size() != n)
    throw std::invalid_argument("landmine_auc: perm must hold every training row once");
  SvmRunner svm(s, h, engine);
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
  const std::vector<double> f =
      svm.decide(rows, first, SvmRunner::Points::validation, all_rows(s.valid_x.rows()));
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

void LandmineFamily::check_agents(int agents) const {
  if (agents < 1 || agents > max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: landmine has {} fields, got {}", max_agents(), agents));
}

std::vector<std::int64_t> LandmineFamily::records(int agents) const {
  check_agents(agents);
  std::vector<std::int64_t> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(splits_[static_cast<std::size_t>(n)]->train_x.rows());
  return out;
}

std::vector<std::shared_ptr<const Objective>> LandmineFamily::make(int agents,
                                                                   const core::RngFactory&) const {
  check_agents(agents);
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<LandmineObjective>(splits_[n], n, spec_.svm));
  return out;
}

}  // namespace fbosim::datasets

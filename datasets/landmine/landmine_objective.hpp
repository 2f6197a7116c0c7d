#pragma once
// Landmine detection (FTS / DP-FTS-DE, Sec. 5.2 / 5): agent n tunes an RBF-kernel SVM on field
// n. x0 -> C in [1e-4, 10], x1 -> gamma in [0.01, 10], linear maps [code]. One evaluation
// trains a C-SVC as libsvm 3.24 (the library scikit-learn's SVC wraps) does, bit for bit
// (SvmEngine), on the field's training half and returns the validation AUC of P(mine) (y = f =
// AUC; no known optimum). The authors' objective is
// SVC(kernel="rbf", C, gamma, probability=True).fit(X_train, Y_train), then
// roc_auc_score(Y_test, predict_proba(X_test)[:, 1]) [code: FTS run_landmine_*.py, DP-FTS-DE
// landmine_*.py].
// Probabilities: libsvm's probability option draws its 5-fold cross-validation with a global
// generator, which is not reproducible when agents train in parallel. We do the same computation
// with the folds drawn from the evaluation's own stream: train the fold models, fit Platt's
// sigmoid to their held-out decision values (Lin, Lin, Weng 2007, as libsvm does), then train
// on the whole half and score the validation half [choice: the stream].
// What scikit-learn does differently from plain libsvm, each an option (objective.class_order,
// objective.probability):
//   class order  scikit-learn's libsvm sorts the labels, so its final model has "no mine" as
//                libsvm's first class, with the rows grouped by class (no-mine rows first); its
//                fold models, retrained on +-1 labels, have "mine" first. Plain libsvm with
//                labels +1 = mine puts mine first everywhere (`mine_first`). The solver stops at
//                tolerance 1e-3, so the two orders give slightly different models at small C
//                or gamma.
//   probability  predict_proba clips the sigmoid to [1e-7, 1 - 1e-7] and passes it through
//                libsvm's pairwise coupling (Wu, Lin & Weng 2004, method 2, iterated to
//                tolerance 0.005 / k), which returns exactly 1/2 when the sigmoid is within
//                0.005 of it: ties the plain sigmoid (`sigmoid`) does not have.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datasets/landmine/landmine_data.hpp"
#include "datasets/landmine/landmine_split.hpp"
#include "datasets/objective_family.hpp"
#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::datasets {

struct ObjectiveFamilyEntry;

/// libsvm's first class (objective.class_order): see the header comment.
enum class SvmClassOrder { mine_first, sklearn };
inline constexpr schema::EnumNames<SvmClassOrder> kSvmClassOrderNames{
    {SvmClassOrder::mine_first, "mine_first"}, {SvmClassOrder::sklearn, "sklearn"}};
SvmClassOrder parse_class_order(const std::string& s);  ///< throws invalid_argument
std::string to_string(SvmClassOrder o);

/// P(mine) from the final model's decision value (objective.probability).
enum class SvmProbability { sigmoid, sklearn };
inline constexpr schema::EnumNames<SvmProbability> kSvmProbabilityNames{
    {SvmProbability::sigmoid, "sigmoid"}, {SvmProbability::sklearn, "sklearn"}};
SvmProbability parse_probability(const std::string& s);  ///< throws invalid_argument
std::string to_string(SvmProbability p);

/// How one evaluation trains and scores (the objective.* keys of the family).
struct SvmOptions {
  int cv_folds = 5;  ///< objective.cv_folds: folds of the Platt fit (libsvm: 5)
  /// Defaults: scikit-learn's, whose SVC(probability=True).predict_proba is the papers'
  /// objective (both authors' code) [choice: the default; measured in docs/REPRODUCTION.md,
  /// "Choices the papers leave open"].
  SvmClassOrder class_order = SvmClassOrder::sklearn;
  SvmProbability probability = SvmProbability::sklearn;
};

struct LandmineSpec {
  /// The data file, here <datasets.root>/landmine/LandmineData.mat when empty.
  static std::string default_path(const std::string& data_root);
  std::string path;
  LandmineSplitKind split = LandmineSplitKind::seeded;  ///< objective.split
  std::uint64_t split_seed = 0;  ///< objective.split_seed: the seeded split's seed
  SvmOptions svm;
};

/// C and gamma of a point of [0,1]^2 (linear maps [code]).
struct SvmHyperparameters {
  double c, gamma;
  static SvmHyperparameters from_unit(const Eigen::VectorXd& x);
};

/// Who trains and scores an evaluation's SVMs: `fbosim`, the kernels from the split's
/// gamma-free distances once per evaluation (RbfKernels, with the vectorised exp that gives the
/// same bits on every x86-64 CPU) and fbosim's solver in libsvm 3.24's arithmetic (train_svc);
/// `fbosim_std_exp`, the same with std::exp; or `libsvm` itself with kernel_type RBF
/// (computing every kernel value in each of its cv_folds + 1 trainings). The last two give the
/// same models and decision values bit for bit (tested): `libsvm` is the reference.
enum class SvmEngine { fbosim, fbosim_std_exp, libsvm };

/// An evaluation's decision values (for tests): the fold models' on their held-out rows (in the
/// shuffled order; with sklearn's class order, in the order of the grouped training rows,
/// oriented towards no mine) and the final model's on the validation half.
struct SvmDecisions {
  std::vector<double> held_out, validation;
  std::vector<double> mine_probability;  ///< P(mine) of the validation rows
};

/// The training rows in the order libsvm's problem holds them: as given (mine_first), or
/// grouped as scikit-learn's libsvm groups them, no-mine rows first (svm_group_classes).
std::vector<int> problem_rows(const LandmineSplit& split, SvmClassOrder order);

/// Trains on the split's training half and returns the validation AUC of the Platt
/// probabilities; the fold assignment comes from rng. Throws std::invalid_argument for x
/// outside [0,1]^2. Decision values are oriented towards libsvm's first class of the model
/// (mine with mine_first; no mine for the final model with sklearn's order).
double landmine_auc(const LandmineSplit& split, const Eigen::VectorXd& x, const SvmOptions& svm,
                    core::RngStream& rng, SvmEngine engine = SvmEngine::fbosim,
                    SvmDecisions* decisions = nullptr);
/// The same with the cross-validation's order given: perm lists every training row once; the
/// folds are its consecutive blocks (as libsvm's, which shuffles the problem's rows). For tests
/// against scikit-learn, whose folds come from its own generator.
double landmine_auc(const LandmineSplit& split, const Eigen::VectorXd& x, const SvmOptions& svm,
                    const std::vector<int>& perm, SvmEngine engine = SvmEngine::fbosim,
                    SvmDecisions* decisions = nullptr);

class LandmineFamily final : public ObjectiveFamily {
 public:
  explicit LandmineFamily(const LandmineSpec& spec);
  int max_agents() const override { return static_cast<int>(splits_.size()); }
  bool varies_by_run() const override { return false; }
  /// Field n's training-half rows (the rows every SVM of an evaluation trains on): floor(n_k / 2)
  /// of each class k with the seeded split, floor(n / 2) with the authors'. Throws
  /// std::invalid_argument outside [1, max_agents()], as make().
  std::vector<std::int64_t> records(int agents) const override;
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  void check_agents(int agents) const;
  LandmineSpec spec_;
  std::vector<std::shared_ptr<const LandmineSplit>> splits_;
};

/// objective.split, objective.split_seed (shared with landmine_logistic).
const schema::Group<LandmineSpec>& landmine_split_keys();
/// objective.split, objective.split_seed, objective.cv_folds, objective.class_order,
/// objective.probability.
const schema::Group<LandmineSpec>& landmine_keys();
/// Registers landmine.
void register_landmine_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets

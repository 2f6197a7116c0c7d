#pragma once
// Landmine detection (FTS / DP-FTS-DE, Sec. 5.2 / 5; spec dp-fts-de.md section 7): agent n tunes
// an RBF-kernel SVM on field n. x0 -> C in [1e-4, 10], x1 -> gamma in [0.01, 10], linear maps
// [code]. One evaluation trains libsvm (the library scikit-learn's SVC wraps) on the field's
// training half and returns the validation AUC of P(mine) (y = f = AUC; no known optimum).
// Probabilities: libsvm's probability option draws its 5-fold cross-validation with the global
// rand(), which is not reproducible when agents train in parallel. We do the same computation
// with the folds drawn from the evaluation's own stream: train the 5 fold models, fit Platt's
// sigmoid to their held-out decision values (Lin, Lin, Weng 2007, as libsvm does), then train
// on the whole half and score the validation half with the sigmoid [choice].
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datasets/landmine/landmine_data.hpp"
#include "datasets/objective_family.hpp"

namespace fbosim::datasets {

struct LandmineSpec {
  std::string path;              ///< <datasets.root>/landmine/LandmineData.mat
  std::uint64_t split_seed = 0;  ///< objective.split_seed: the per-field 50/50 split
  int cv_folds = 5;              ///< objective.cv_folds: folds of the Platt fit (libsvm: 5)
};

/// One field's stratified 50/50 split: per class, a uniformly random half (rounded down) of
/// its rows goes to training, from the stream (split_seed, "landmine.split", field): the same
/// split in every run and for every algorithm.
struct LandmineSplit {
  Eigen::MatrixXd train_x, valid_x;
  std::vector<int> train_y, valid_y;
};
LandmineSplit split_field(const LandmineField& field, std::uint64_t seed, int field_index);

/// C and gamma of a point of [0,1]^2 (linear maps [code]).
struct SvmHyperparameters {
  double c, gamma;
  static SvmHyperparameters from_unit(const Eigen::VectorXd& x);
};

/// How libsvm gets the RBF kernel: `precomputed` once per evaluation and shared by its
/// cv_folds + 1 trainings (PrecomputedRbf; the values libsvm computes itself, so the same
/// models), or `rbf`, libsvm computing the entries in every training (kept for the tests).
enum class SvmKernel { precomputed, rbf };

/// An evaluation's decision values (for tests): the fold models' on their held-out rows (in the
/// shuffled order) and the final model's on the validation half.
struct SvmDecisions {
  std::vector<double> held_out, validation;
};

/// Trains on the split's training half and returns the validation AUC of the Platt
/// probabilities; the fold assignment comes from rng. Throws std::invalid_argument for x
/// outside [0,1]^2.
double landmine_auc(const LandmineSplit& split, const Eigen::VectorXd& x, int cv_folds,
                    core::RngStream& rng, SvmKernel kernel = SvmKernel::precomputed,
                    SvmDecisions* decisions = nullptr);

class LandmineFamily final : public ObjectiveFamily {
 public:
  explicit LandmineFamily(const LandmineSpec& spec);
  int max_agents() const override { return static_cast<int>(splits_.size()); }
  bool varies_by_run() const override { return false; }
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  LandmineSpec spec_;
  std::vector<std::shared_ptr<const LandmineSplit>> splits_;
};

}  // namespace fbosim::datasets

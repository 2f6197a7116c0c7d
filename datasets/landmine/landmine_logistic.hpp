#pragma once
// Landmine detection with L2-regularised logistic regression (issue 29): the objective of
// Kusner, Gardner, Garnett & Weinberger's Algorithm 3 ("Differentially Private Bayesian
// Optimization", ICML 2015, sec. 5) on the landmine fields. Agent n tunes the L2 strength lambda
// on field n: x in [0, 1] -> lambda = lambda_min (lambda_max / lambda_min)^x (log scale); one
// evaluation trains the logistic regression of logistic_regression.hpp on the field's training
// half (public, as the paper's training set), by Newton's method to ||grad|| <=
// objective.gradient_tolerance, and returns the validation half's mean probability of the true
// label, sigma(y w^T phi(x)) (y = f = score, deterministic; no known optimum). The validation
// half is the private set V.
// The objective certifies Assumption 2 (convex_lipschitz_score): ||phi(x)|| <= 1 for every
// record (LogisticFeatures), so the logistic loss's gradient is at most 1 and the score is
// 1/4-Lipschitz in w with range 1; lambda in [lambda_min, lambda_max]; m = the validation size.
#include <cstdint>
#include <memory>
#include <vector>

#include "datasets/landmine/landmine_objective.hpp"
#include "datasets/landmine/logistic_regression.hpp"

namespace fbosim::datasets {

struct LandmineLogisticSpec {
  LandmineSpec data;         ///< the file and the split (objective.split, objective.split_seed)
  double lambda_min = 0.01;  ///< objective.lambda_min
  double lambda_max = 100;   ///< objective.lambda_max
  double gradient_tolerance = 1e-9;  ///< objective.gradient_tolerance
};

/// lambda of a point of [0, 1] (log scale); throws std::invalid_argument outside it.
double logistic_lambda(const LandmineLogisticSpec& spec, const Eigen::VectorXd& x);

/// One field's split with its public feature map applied (phi fitted on the training half).
struct LogisticField {
  Eigen::MatrixXd train_x, valid_x;   ///< phi of the rows, n x (d + 1)
  std::vector<int> train_y, valid_y;  ///< +1 mine, -1 no mine
  static LogisticField of(const LandmineSplit& split);
};

class LandmineLogisticFamily final : public ObjectiveFamily {
 public:
  /// Throws std::invalid_argument for a bad range or tolerance (naming the key).
  explicit LandmineLogisticFamily(const LandmineLogisticSpec& spec);
  int max_agents() const override { return static_cast<int>(fields_.size()); }
  bool varies_by_run() const override { return false; }
  /// Field n's training-half rows (what the regression of field n trains on), as
  /// LandmineFamily::records. Throws std::invalid_argument outside [1, max_agents()], as make().
  std::vector<std::int64_t> records(int agents) const override;
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  void check_agents(int agents) const;
  LandmineLogisticSpec spec_;
  std::vector<std::shared_ptr<const LogisticField>> fields_;
};

/// The objective of one field (for tests: a field built by LogisticField::of).
std::shared_ptr<const Objective> make_landmine_logistic_objective(
    std::shared_ptr<const LogisticField> field, int agent, const LandmineLogisticSpec& spec);

/// objective.split, objective.split_seed, objective.lambda_min, objective.lambda_max,
/// objective.gradient_tolerance.
const schema::Group<LandmineLogisticSpec>& landmine_logistic_keys();
/// Registers landmine_logistic.
void register_landmine_logistic_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets

#pragma once
// L2-regularised binary logistic regression trained to a certified tolerance, for the landmine
// objective of Kusner et al.'s Algorithm 3 ("Differentially Private Bayesian Optimization",
// ICML 2015, sec. 5, eq. (10)): their privacy bound (Theorem 7) needs the training objective's
// minimiser, so the trainer is deterministic Newton's method, stopped only when the gradient's
// norm is at most the tolerance (then ||w - w*|| <= tolerance / lambda by strong convexity).
//
//   O_lambda(w) = lambda / 2 ||w||^2 + 1/n sum_i log(1 + exp(-y_i w^T x_i)),   y_i in {-1, +1},
//   grad = lambda w - 1/n sum_i y_i x_i sigma(-y_i w^T x_i),
//   Hessian = lambda I + 1/n sum_i sigma_i (1 - sigma_i) x_i x_i^T.
// The bias is a feature (the constant column of LogisticFeatures), penalised like the others:
// an unpenalised bias would leave O_lambda without strong convexity along it.
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets {

struct LogisticFit {
  Eigen::VectorXd w;
  double gradient_norm = 0;  ///< ||grad O_lambda(w)|| at the returned w
  int iterations = 0;
};

/// Minimises O_lambda from w = 0 until ||grad|| <= tolerance (Newton steps, halved until the
/// objective decreases). x: n x d rows, y: n labels in {-1, +1}. Throws std::invalid_argument
/// for bad inputs (lambda <= 0, tolerance < 0, sizes) and std::runtime_error when 100 steps do
/// not reach the tolerance (its privacy bound would not hold).
LogisticFit fit_logistic(const Eigen::MatrixXd& x, const std::vector<int>& y, double lambda,
                         double tolerance);
/// O_lambda(w) (for tests).
double logistic_objective(const Eigen::MatrixXd& x, const std::vector<int>& y, double lambda,
                          const Eigen::VectorXd& w);

/// The public feature map phi of a landmine field, fitted on the training half only: each of
/// the d features standardised by the training rows' mean and standard deviation (1 where it is
/// 0), a constant 1 appended, the (d + 1)-vector divided by sqrt(d + 1) (a typical row then has
/// norm about 1) and projected onto the unit ball. Every record, whatever its values, maps to
/// ||phi(x)|| <= 1: the bound on which the logistic loss's gradient (<= 1) and the score's
/// Lipschitz constant (<= 1/4) rest for any neighbouring validation set.
class LogisticFeatures {
 public:
  explicit LogisticFeatures(const Eigen::MatrixXd& train_x);
  /// phi of each row of x (n x d) -> n x (d + 1).
  Eigen::MatrixXd map(const Eigen::MatrixXd& x) const;

 private:
  Eigen::RowVectorXd mean_, scale_;
};

/// The validation score of Kusner et al.'s Assumption 2 for this model: the mean over the rows
/// of sigma(y_i w^T x_i), the probability the model gives to the true label (a "normalized
/// sigmoid" in the paper's words [choice: its exact form is lost]): in (0, 1), (||x|| / 4)-
/// Lipschitz in w.
double mean_true_label_probability(const Eigen::MatrixXd& x, const std::vector<int>& y,
                                   const Eigen::VectorXd& w);

}  // namespace fbosim::datasets

#pragma once
// Platt scaling: P(y = 1 | f) = 1 / (1 + exp(A f + B)) fitted to decision values by the Newton
// method with backtracking of Lin, Lin, Weng 2007 ("A note on Platt's probabilistic outputs for
// support vector machines", Algorithm 1), the method libsvm's probability option uses, with
// Platt's regularised targets (n+ + 1) / (n+ + 2) and 1 / (n- + 2).
#include <vector>

namespace fbosim::datasets {

struct PlattSigmoid {
  double a = 0, b = 0;
  /// 1 / (1 + exp(a f + b)), computed without overflow.
  double probability(double f) const;
};

/// labels in {0, 1} (1 = the positive class); throws std::invalid_argument on size mismatch.
PlattSigmoid fit_platt(const std::vector<double>& decision, const std::vector<int>& labels);

/// Class probabilities p (summing to 1) from pairwise ones, r[i][j] = P(i | i or j) for i != j
/// (the diagonal is ignored): method 2 of Wu, Lin & Weng 2004 ("Probability estimates for
/// multi-class classification by pairwise coupling", JMLR 5, eq. (21) and its fixed-point
/// iteration), in libsvm's arithmetic: start at p = 1/k, stop when max_t |(Q p)_t - p'Q p| <
/// 0.005 / k or after max(100, k) sweeps. scikit-learn's predict_proba calls it for two classes
/// too, where it returns (1/2, 1/2) whenever |r01 - r10| < 0.01 and (r01, r10) otherwise.
/// Throws std::invalid_argument for a non-square r or k < 1.
std::vector<double> pairwise_coupling(const std::vector<std::vector<double>>& r);

}  // namespace fbosim::datasets

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

}  // namespace fbosim::datasets

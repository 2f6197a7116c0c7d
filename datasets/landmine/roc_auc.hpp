#pragma once
// Area under the ROC curve: the probability that a random positive scores above a random
// negative, ties counted 1/2 (the Mann-Whitney U statistic / (n+ n-); equal to the trapezoidal
// ROC area scikit-learn's roc_auc_score reports). Written here: no maintained C++ library in
// Debian 12 offers it without a large dependency (mlpack has none; Shark's NegativeAUC would
// bring Shark and its Boost serialisation stack for one function).
#include <vector>

namespace fbosim::datasets {

/// labels in {0, 1}; throws std::invalid_argument when sizes differ or a class is empty.
double roc_auc(const std::vector<double>& scores, const std::vector<int>& labels);

}  // namespace fbosim::datasets

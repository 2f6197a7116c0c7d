#include "datasets/landmine/roc_auc.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace fbosim::datasets {

double roc_auc(const std::vector<double>& scores, const std::vector<int>& labels) {
  if (scores.size() != labels.size())
    throw std::invalid_argument("roc_auc: scores and labels differ in size");
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return scores[a] < scores[b]; });
  // Sum of the positives' mid-ranks (ranks 1-based, tied groups share their average rank).
  double rank_sum = 0;
  long long positives = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && scores[order[j]] == scores[order[i]]) ++j;
    const double mid_rank = 0.5 * static_cast<double>(i + 1 + j);  // mean of i+1 .. j
    for (std::size_t k = i; k < j; ++k)
      if (labels[order[k]] == 1) rank_sum += mid_rank, ++positives;
    i = j;
  }
  const long long negatives = static_cast<long long>(scores.size()) - positives;
  if (positives == 0 || negatives == 0)
    throw std::invalid_argument("roc_auc: needs at least one positive and one negative");
  const double p = static_cast<double>(positives);
  return (rank_sum - p * (p + 1) / 2) / (p * static_cast<double>(negatives));
}

}  // namespace fbosim::datasets

#include "algorithms/acquisition/candidate_argmax.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace fbosim::acq {

CandidateArgmax::CandidateArgmax(Eigen::MatrixXd candidates) : candidates_(std::move(candidates)) {
  if (candidates_.rows() < 1 || candidates_.cols() < 1)
    throw std::invalid_argument("CandidateArgmax: need at least one candidate of dimension >= 1");
}

Eigen::Index CandidateArgmax::argmax(const Eigen::VectorXd& values) {
  Eigen::Index best = -1;
  for (Eigen::Index j = 0; j < values.size(); ++j) {
    if (std::isnan(values[j])) continue;
    if (best < 0 || values[j] > values[best]) best = j;  // strict: the first maximum stays
  }
  if (best < 0)
    throw std::invalid_argument(values.size() == 0 ? "CandidateArgmax: no values"
                                                   : "CandidateArgmax: every score is NaN");
  return best;
}

CandidateChoice CandidateArgmax::maximise_values(const Eigen::VectorXd& values) const {
  if (values.size() != candidates_.rows())
    throw std::invalid_argument("CandidateArgmax: got " + std::to_string(values.size()) +
                                " scores for " + std::to_string(candidates_.rows()) +
                                " candidates");
  const Eigen::Index j = argmax(values);
  return {j, candidates_.row(j).transpose(), values[j]};
}

CandidateChoice CandidateArgmax::maximise(const BatchScore& score) const {
  return maximise_values(score(candidates_));
}

}  // namespace fbosim::acq

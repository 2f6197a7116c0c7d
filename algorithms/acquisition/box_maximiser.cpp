#include "algorithms/acquisition/box_maximiser.hpp"

#include <stdexcept>
#include <utility>

namespace fbosim::acq {

Candidate BoxMaximiser::maximise(const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                                 const core::Box& box, core::RngStream& rng) const {
  const int d = box.dim();
  if (features.dim() != d || omega.size() != features.size() || box.hi.size() != d)
    throw std::invalid_argument("BoxMaximiser::maximise: dimensions do not match");
  // g(x) = phi(x) . omega with its gradient; one workspace keeps L-BFGS-B allocation-free.
  rff::RandomFeatures::Workspace ws;
  ScoreMaximiser::Score score;
  score.has_gradient = true;
  score.value = [&](const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
    return features.value(x, omega, grad, ws);
  };
  score.batch = [&](const Eigen::MatrixXd& X) { return features.values(X, omega); };
  ScoreMaximiser::Result r = ScoreMaximiser(options_).maximise(score, box, rng);
  return {std::move(r.x), r.value};
}

}  // namespace fbosim::acq

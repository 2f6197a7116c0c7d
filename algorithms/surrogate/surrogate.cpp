#include "algorithms/surrogate/surrogate.hpp"

#include "algorithms/surrogate/joint_gaussian.hpp"

namespace fbosim::surrogate {

Eigen::MatrixXd Surrogate::sample(const Eigen::MatrixXd& Xq, int count,
                                  core::RngStream& rng) const {
  const JointPrediction joint = predict_joint(Xq);
  return sample_joint_gaussian(joint.mean, joint.covariance, count, rng);
}

}  // namespace fbosim::surrogate

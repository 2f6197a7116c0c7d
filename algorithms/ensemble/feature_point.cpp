#include "algorithms/ensemble/feature_point.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/rff/fast_trig.hpp"

namespace fbosim::ensemble {

FeaturePoint::FeaturePoint(const rff::RandomFeatures& features)
    : features_(&features),
      angle_(features.size()),
      sin_(features.size()),
      cos_(features.size()),
      phi_(features.size()),
      jac_(features.size(), features.dim()),
      proj_(features.dim()) {}

void FeaturePoint::evaluate(const Eigen::VectorXd& x, bool jacobian) {
  const Eigen::MatrixXd& S = features_->frequencies();  // M x d
  if (x.size() != S.cols())
    throw std::invalid_argument("FeaturePoint::evaluate: x must have " + std::to_string(S.cols()) +
                                " entries, got " + std::to_string(x.size()));
  angle_.noalias() = S * x;
  angle_ += features_->phases();
  rff::fast_sincos(angle_.data(), sin_.data(), cos_.data(), angle_.size());
  const double norm = cos_.norm();
  const double root_var = std::sqrt(features_->signal_var());
  phi_ = (root_var / norm) * cos_;
  if (!jacobian) return;
  // D = diag(sin) S; with chat = c / |c|: J = -(sqrt(v) / |c|) (D - chat (chat^T D)).
  angle_ = cos_ / norm;  // chat (the angles are no longer needed)
  jac_.noalias() = sin_.asDiagonal() * S;
  proj_.noalias() = angle_.transpose() * jac_;
  jac_.noalias() -= angle_ * proj_;
  jac_ *= -root_var / norm;
}

void FeaturePoint::chain(const Eigen::VectorXd& a, Eigen::VectorXd& out) const {
  out.resize(jac_.cols());
  out.noalias() = jac_.transpose() * a;
}

}  // namespace fbosim::ensemble

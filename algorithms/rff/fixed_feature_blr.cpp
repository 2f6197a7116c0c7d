#include "algorithms/rff/fixed_feature_blr.hpp"

#include <stdexcept>
#include <utility>

namespace fbosim::rff {

FixedFeatureBlr::FixedFeatureBlr(RandomFeatures base) : base_(std::move(base)) {}

bool FixedFeatureBlr::set_hyper(double lengthscale, double signal_var, double lambda) {
  if (!(lengthscale > 0) || !(signal_var > 0))
    throw std::invalid_argument("FixedFeatureBlr::set_hyper: need l, signal_var > 0");
  if (features_ && lengthscale == lengthscale_ && signal_var == signal_var_ && lambda == lambda_)
    return false;
  features_ = RandomFeatures::from(base_.frequencies() / lengthscale, base_.phases(), signal_var);
  posterior_.emplace(base_.size(), lambda);
  lengthscale_ = lengthscale;
  signal_var_ = signal_var;
  lambda_ = lambda;
  return true;
}

bool FixedFeatureBlr::set_hyper(const Eigen::VectorXd& lengthscales, double signal_var,
                                double lambda) {
  if ((lengthscales.size() != 1 && lengthscales.size() != base_.dim()) ||
      !(lengthscales.array() > 0).all() || !(signal_var > 0))
    throw std::invalid_argument(
        "FixedFeatureBlr::set_hyper: need one length scale or one per dimension, all > 0, and "
        "signal_var > 0");
  if (features_ && lengthscales.size() == lengthscales_.size() && lengthscales == lengthscales_ &&
      signal_var == signal_var_ && lambda == lambda_)
    return false;
  Eigen::MatrixXd S =
      lengthscales.size() == 1
          ? Eigen::MatrixXd(base_.frequencies() / lengthscales[0])
          : Eigen::MatrixXd(base_.frequencies() * lengthscales.cwiseInverse().asDiagonal());
  features_ = RandomFeatures::from(std::move(S), base_.phases(), signal_var);
  posterior_.emplace(base_.size(), lambda);
  lengthscales_ = lengthscales;
  signal_var_ = signal_var;
  lambda_ = lambda;
  return true;
}

const RandomFeatures& FixedFeatureBlr::features() const {
  if (!features_) throw std::logic_error("FixedFeatureBlr::features: set_hyper first");
  return *features_;
}

BlrPosterior& FixedFeatureBlr::posterior() {
  if (!posterior_) throw std::logic_error("FixedFeatureBlr::posterior: set_hyper first");
  return *posterior_;
}

void FixedFeatureBlr::add(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) {
  if (!posterior_) throw std::logic_error("FixedFeatureBlr::add: set_hyper first");
  if (X.rows() != y.size()) throw std::invalid_argument("FixedFeatureBlr::add: X n x d, y n");
  if (X.rows() == 0) return;
  const Eigen::MatrixXd Phi = features_->features(X);
  if (X.rows() > 1 && posterior_->observations() == 0) {
    posterior_->add(Phi, y);  // a rebuild: Phi^T Phi at once, one factorisation
    return;
  }
  for (Eigen::Index k = 0; k < X.rows(); ++k)
    posterior_->add(Eigen::VectorXd(Phi.row(k).transpose()), y[k]);
}

Eigen::VectorXd FixedFeatureBlr::sample(core::RngStream& rng) { return posterior().sample(rng); }

}  // namespace fbosim::rff

#include "algorithms/ensemble/rgpe_score.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/acquisition/scores.hpp"

namespace fbosim::ensemble {

RgpeScore::RgpeScore(const rff::RandomFeatures& features,
                     const std::vector<SourcePosterior>& sources, const Eigen::VectorXd& weights,
                     const surrogate::Surrogate& target, double y_max, Variant variant, double xi)
    : features_(&features),
      target_(&target),
      y_max_(y_max),
      xi_(xi),
      variant_(variant),
      point_(features) {
  const auto N = static_cast<Eigen::Index>(sources.size());
  if (weights.size() != N + 1)
    throw std::invalid_argument("RgpeScore: need N + 1 = " + std::to_string(N + 1) +
                                " weights, got " + std::to_string(weights.size()));
  if (!weights.allFinite() || (weights.array() < 0.0).any() || !(weights.sum() > 0.0))
    throw std::invalid_argument("RgpeScore: weights must be finite, >= 0 and not all 0");
  if (!std::isfinite(y_max) || !std::isfinite(xi))
    throw std::invalid_argument("RgpeScore: y_max and xi must be finite");
  if (target.dim() != features.dim())
    throw std::invalid_argument("RgpeScore: the target's dimension differs from the features'");
  w_target_ = weights[N];
  std::vector<const SourcePosterior*> parts;
  std::vector<double> a;
  for (Eigen::Index m = 0; m < N; ++m) {
    const SourcePosterior& s = sources[static_cast<std::size_t>(m)];
    if (s.size() != features.size())
      throw std::invalid_argument("RgpeScore: source " + std::to_string(m) +
                                  " has M = " + std::to_string(s.size()) +
                                  ", the features M = " + std::to_string(features.size()));
    if (weights[m] == 0.0) continue;
    active_.push_back(static_cast<int>(m));
    parts.push_back(&s);
    a.push_back(weights[m]);
  }
  if (!parts.empty()) merged_.push_back(SourcePosterior::linear_combination(parts, a));
}

surrogate::PointPrediction RgpeScore::evaluate(const Eigen::VectorXd& x, bool grads) const {
  const Eigen::Index d = x.size();
  if (d != features_->dim())
    throw std::invalid_argument("RgpeScore: x must have " + std::to_string(features_->dim()) +
                                " entries, got " + std::to_string(d));
  surrogate::PointPrediction p;
  if (!merged_.empty()) {
    point_.evaluate(x, grads);
    p = merged_[0].predict_point(point_, grads ? &gm_ : nullptr, grads ? &gv_ : nullptr, ws_);
  } else if (grads) {
    gm_.setZero(d);
    gv_.setZero(d);
  }
  if (w_target_ > 0.0) {
    const surrogate::PointPrediction t =
        target_->predict_point(x, grads ? &tm_ : nullptr, grads ? &tv_ : nullptr);
    // [CODE-FTS] GPy's predict includes the observation noise; it is constant in x.
    const double var_a = t.variance + (variant_ == Variant::authors ? target_->noise_var() : 0.0);
    p.mean += w_target_ * t.mean;
    p.variance += w_target_ * w_target_ * var_a;
    if (grads) {
      gm_ += w_target_ * tm_;
      gv_ += (w_target_ * w_target_) * tv_;
    }
  }
  return p;
}

surrogate::PointPrediction RgpeScore::predict_point(const Eigen::VectorXd& x,
                                                    Eigen::VectorXd* grad_mean,
                                                    Eigen::VectorXd* grad_var) const {
  const surrogate::PointPrediction p = evaluate(x, grad_mean || grad_var);
  if (grad_mean) *grad_mean = gm_;
  if (grad_var) *grad_var = gv_;
  return p;
}

surrogate::Prediction RgpeScore::predict(const Eigen::MatrixXd& X) const {
  if (X.cols() != features_->dim())
    throw std::invalid_argument("RgpeScore::predict: X must have " +
                                std::to_string(features_->dim()) + " columns");
  surrogate::Prediction p{Eigen::VectorXd::Zero(X.rows()), Eigen::VectorXd::Zero(X.rows())};
  if (X.rows() == 0) return p;
  if (!merged_.empty()) p = merged_[0].predict(features_->features(X));
  if (w_target_ > 0.0) {
    const surrogate::Prediction t = target_->predict(X);
    const double noise = variant_ == Variant::authors ? target_->noise_var() : 0.0;
    p.mean += w_target_ * t.mean;
    p.variance += (w_target_ * w_target_) * (t.variance.array() + noise).matrix();
  }
  return p;
}

double RgpeScore::value(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const {
  if (!grad) {
    const surrogate::PointPrediction p = evaluate(x, false);
    return acq::expected_improvement(p.mean, p.variance, y_max_, xi_).value;
  }
  const surrogate::PointPrediction p = evaluate(x, true);
  const acq::ScoreGrad ei = acq::expected_improvement(p.mean, p.variance, y_max_, xi_);
  grad->resize(x.size());
  grad->noalias() = ei.d_mean * gm_ + ei.d_var * gv_;
  return ei.value;
}

Eigen::VectorXd RgpeScore::batch(const Eigen::MatrixXd& X) const {
  const surrogate::Prediction p = predict(X);
  return acq::expected_improvement(p.mean, p.variance, y_max_, xi_);
}

acq::ScoreMaximiser::Score RgpeScore::score() const { return acq::score_of(*this); }

}  // namespace fbosim::ensemble

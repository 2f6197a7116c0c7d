#include "algorithms/ensemble/taf_score.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/acquisition/scores.hpp"

namespace fbosim::ensemble {

namespace {
[[noreturn]] void taf_fail(const std::string& what) {
  throw std::invalid_argument("TafScore: " + what);
}
}  // namespace

TafScore::TafScore(const rff::RandomFeatures& features, const std::vector<SourcePosterior>& sources,
                   const Eigen::VectorXd& weights, const surrogate::Surrogate& target, double y_max,
                   Variant variant, core::RngStream* rng, double xi)
    : features_(&features),
      target_(&target),
      rng_(rng),
      y_max_(y_max),
      xi_(xi),
      variant_(variant),
      point_(features) {
  const auto N = static_cast<Eigen::Index>(sources.size());
  if (weights.size() != N + 1)
    taf_fail("need N + 1 = " + std::to_string(N + 1) + " weights, got " +
             std::to_string(weights.size()));
  if (!weights.allFinite() || (weights.array() < 0.0).any() || !(weights.sum() > 0.0))
    taf_fail("weights must be finite, >= 0 and not all 0");
  if (!std::isfinite(y_max) || !std::isfinite(xi)) taf_fail("y_max and xi must be finite");
  if (variant == Variant::authors && !rng) taf_fail("the authors' variant needs an RngStream");
  if (target.dim() != features.dim()) taf_fail("the target's dimension differs from the features'");
  w_target_ = weights[N];
  total_weight_ = weights.sum();
  for (Eigen::Index m = 0; m < N; ++m) {
    const SourcePosterior& s = sources[static_cast<std::size_t>(m)];
    if (s.size() != features.size())
      taf_fail("source " + std::to_string(m) + " has M = " + std::to_string(s.size()) +
               ", the features M = " + std::to_string(features.size()));
    if (weights[m] == 0.0) continue;
    if (!s.incumbent()) taf_fail("source " + std::to_string(m) + " has weight but no incumbent");
    active_.push_back(static_cast<int>(m));
    sources_.push_back(&s);
  }
  const auto A = static_cast<Eigen::Index>(active_.size());
  w_.resize(A);
  offset_.resize(A);
  nu_.resize(features.size(), A);
  for (Eigen::Index i = 0; i < A; ++i) {
    w_[i] = weights[active_[static_cast<std::size_t>(i)]];
    offset_[i] = *sources_[static_cast<std::size_t>(i)]->incumbent() + xi;
    nu_.col(i) = sources_[static_cast<std::size_t>(i)]->nu();
  }
  eps_.resize(A);
  mu_.resize(A);
}

double TafScore::target_term(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const {
  if (w_target_ == 0.0) {
    if (grad) grad->setZero(x.size());
    return 0.0;
  }
  const surrogate::PointPrediction t =
      target_->predict_point(x, grad ? &tm_ : nullptr, grad ? &tv_ : nullptr);
  // [CODE-FTS] GPy's predict includes the observation noise; it is constant in x.
  const double var = t.variance + (variant_ == Variant::authors ? target_->noise_var() : 0.0);
  const acq::ScoreGrad ei = acq::expected_improvement(t.mean, var, y_max_, xi_);
  if (grad) grad->noalias() = w_target_ * (ei.d_mean * tm_ + ei.d_var * tv_);
  return w_target_ * ei.value;
}

double TafScore::evaluate(const Eigen::VectorXd& x, const Eigen::VectorXd* eps,
                          Eigen::VectorXd* grad) const {
  if (x.size() != features_->dim())
    taf_fail("x must have " + std::to_string(features_->dim()) + " entries, got " +
             std::to_string(x.size()));
  double total = target_term(x, grad ? &gx_ : nullptr);
  if (!active_.empty()) {
    point_.evaluate(x, grad != nullptr);
    const Eigen::VectorXd& phi = point_.phi();
    mu_.noalias() = nu_.transpose() * phi;
    if (grad) acc_.setZero(phi.size());  // sum of w (d g / d phi) over the improving sources
    // sd_m <= sqrt(bound_m |phi|^2): where even that cannot lift g above y_max_m the variance
    // (one M^2/2 product) is skipped; the result is the same as computing it.
    const double phi2 = phi.squaredNorm();
    for (Eigen::Index i = 0; i < mu_.size(); ++i) {
      const double u = mu_[i] - offset_[i];
      if (variant_ == Variant::corrected) {
        if (u <= 0.0) continue;
        total += w_[i] * u;
        if (grad) acc_ += w_[i] * nu_.col(i);
        continue;
      }
      const SourcePosterior& s = *sources_[static_cast<std::size_t>(i)];
      const double e = (*eps)[i];
      if (e <= 0.0 ? u <= 0.0 : u + e * std::sqrt(s.variance_bound() * phi2) <= 0.0) continue;
      const double sd = std::sqrt(s.variance(phi, ws_));
      const double g = u + e * sd;
      if (g <= 0.0) continue;
      total += w_[i] * g;
      if (!grad) continue;
      acc_ += w_[i] * nu_.col(i);
      if (sd > 0.0) {
        s.variance_direction(ws_);  // d sd / dx = J^T (lambda Sigma^-1 phi) / sd
        acc_ += (w_[i] * e / sd) * ws_.w;
      }
    }
    if (grad) {
      point_.chain(acc_, *grad);
      *grad += gx_;
    }
  } else if (grad) {
    *grad = gx_;
  }
  if (grad) *grad /= total_weight_;
  return total / total_weight_;
}

double TafScore::value_with_draws(const Eigen::VectorXd& x, const Eigen::VectorXd& eps,
                                  Eigen::VectorXd* grad) const {
  if (variant_ != Variant::authors) taf_fail("value_with_draws is for the authors' variant only");
  if (eps.size() != static_cast<Eigen::Index>(active_.size()))
    taf_fail("need one normal per active source (" + std::to_string(active_.size()) + "), got " +
             std::to_string(eps.size()));
  return evaluate(x, &eps, grad);
}

double TafScore::value(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const {
  if (variant_ == Variant::corrected) return evaluate(x, nullptr, grad);
  for (Eigen::Index i = 0; i < eps_.size(); ++i) eps_[i] = rng_->normal();
  return evaluate(x, &eps_, grad);
}

Eigen::VectorXd TafScore::batch_with_draws(const Eigen::MatrixXd& X,
                                           const Eigen::MatrixXd& E) const {
  const Eigen::Index m = X.rows(), A = static_cast<Eigen::Index>(active_.size());
  if (X.cols() != features_->dim())
    taf_fail("X must have " + std::to_string(features_->dim()) + " columns");
  if (variant_ == Variant::authors && (E.rows() != m || E.cols() != A))
    taf_fail("E must be " + std::to_string(m) + " x " + std::to_string(A));
  Eigen::VectorXd total = Eigen::VectorXd::Zero(m);
  if (m == 0) return total;
  if (w_target_ > 0.0) {
    const surrogate::Prediction t = target_->predict(X);
    const double noise = variant_ == Variant::authors ? target_->noise_var() : 0.0;
    total = w_target_ *
            acq::expected_improvement(t.mean, (t.variance.array() + noise).matrix(), y_max_, xi_);
  }
  if (A > 0) {
    const Eigen::MatrixXd Phi = features_->features(X);  // m x M, shared by all sources
    const Eigen::MatrixXd U = (Phi * nu_).rowwise() - offset_.transpose();  // mu - y_max - xi
    if (variant_ == Variant::corrected) {
      total.noalias() += U.cwiseMax(0.0) * w_;
    } else {
      const Eigen::VectorXd phi2 = Phi.rowwise().squaredNorm();
      std::vector<Eigen::Index> rows;
      for (Eigen::Index i = 0; i < A; ++i) {
        const SourcePosterior& s = *sources_[static_cast<std::size_t>(i)];
        rows.clear();  // the points whose draw can improve (as in evaluate)
        for (Eigen::Index j = 0; j < m; ++j) {
          const double u = U(j, i), e = E(j, i);
          if (!(e <= 0.0 ? u <= 0.0 : u + e * std::sqrt(s.variance_bound() * phi2[j]) <= 0.0))
            rows.push_back(j);
        }
        if (rows.empty()) continue;
        const Eigen::VectorXd var = s.predict(Phi(rows, Eigen::all)).variance;
        for (std::size_t r = 0; r < rows.size(); ++r) {
          const Eigen::Index j = rows[r];
          const double g = U(j, i) + E(j, i) * std::sqrt(var[static_cast<Eigen::Index>(r)]);
          if (g > 0.0) total[j] += w_[i] * g;
        }
      }
    }
  }
  return total / total_weight_;
}

Eigen::VectorXd TafScore::batch(const Eigen::MatrixXd& X) const {
  if (variant_ == Variant::corrected) return batch_with_draws(X, Eigen::MatrixXd());
  const Eigen::Index A = static_cast<Eigen::Index>(active_.size());
  Eigen::MatrixXd E(X.rows(), A);
  for (Eigen::Index j = 0; j < X.rows(); ++j)
    for (Eigen::Index i = 0; i < A; ++i) E(j, i) = rng_->normal();
  return batch_with_draws(X, E);
}

acq::ScoreMaximiser::Score TafScore::score() const { return acq::score_of(*this); }

}  // namespace fbosim::ensemble

#include "algorithms/server/buffered_release_audit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/server/canary_geometry.hpp"
#include "algorithms/server/server_release_audit.hpp"

namespace fbosim::server {

namespace {

// Each sub-region's weights of the arrivals scaled so that they sum to the sub-region's sum
// over all agents; the others' weights 0 (a row whose arrivals carry no weight stays).
Eigen::MatrixXd renormalised_over(const Eigen::MatrixXd& w, const std::vector<int>& arrivals) {
  Eigen::MatrixXd out = Eigen::MatrixXd::Zero(w.rows(), w.cols());
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    double present = 0;
    for (const int n : arrivals) present += w(i, n);
    const double scale = present > 0 ? w.row(i).sum() / present : 1.0;
    for (const int n : arrivals) out(i, n) = w(i, n) * scale;
  }
  return out;
}

}  // namespace

BufferedReleaseAudit::BufferedReleaseAudit(const DpMechanism::Options& mechanism, int features,
                                           int agents, int regions,
                                           const de::WeightSchedule::Options& weights, int rounds,
                                           int buffer, Setting setting)
    : intact_(mechanism),
      setting_(setting),
      features_(features),
      agents_(agents),
      regions_(regions),
      buffer_(buffer) {
  if (mechanism.trust.trust != Trust::central)
    throw std::invalid_argument(
        "the audit of a buffered release runs the central mechanism only (server.trust: "
        "central); the trust models' releases are audited without schedule.kind buffered");
  if (mechanism.clipping != Clipping::fixed)
    throw std::invalid_argument(
        "the audit of a buffered release needs server.clipping: fixed (an adaptive clip norm "
        "adds a second release to each round)");
  if (buffer < 1 || buffer > agents)
    throw std::invalid_argument(
        fmt::format("schedule.buffer must be in 1..{} for the audit, got {}", agents, buffer));
  if (!(std::isfinite(setting.noise_scale) && setting.noise_scale > 0))
    throw std::invalid_argument(
        fmt::format("--noise-scale must be a finite number > 0, got {}", setting.noise_scale));
  // The canary and the round's weights of the central audit (the largest whitened shift).
  const ServerReleaseAudit chooser(mechanism, features, agents, regions, weights, rounds, 1.0);
  round_ = chooser.round();
  canary_ = chooser.canary();
  const Eigen::MatrixXd& fixed = chooser.weights();
  arrivals_.push_back(canary_);
  for (int n = 0; n < agents_ && static_cast<int>(arrivals_.size()) < buffer_; ++n)
    if (n != canary_) arrivals_.push_back(n);
  std::sort(arrivals_.begin(), arrivals_.end());

  DpMechanism::Options audited = mechanism;
  audited.noise_multiplier *= setting.noise_scale;
  const DpMechanism calibrated(audited, features);
  const std::vector<double> fixed_stds =
      calibrated.noise_stds(fixed, static_cast<std::size_t>(agents_));
  used_ = fixed;
  if (setting.broken == BufferedBreak::charged_once) {
    used_.conservativeResize(Eigen::NoChange, agents_ + 1);  // the canary's second message
    used_.col(agents_) = fixed.col(canary_);
  } else if (setting.broken == BufferedBreak::renormalised) {
    used_ = renormalised_over(fixed, arrivals_);
    // The noise of the fixed weights: z scaled so that no sub-region's std falls below it.
    const std::vector<double> own = calibrated.noise_stds(used_, static_cast<std::size_t>(agents_));
    double ratio = 0;
    for (std::size_t i = 0; i < own.size(); ++i) ratio = std::max(ratio, fixed_stds[i] / own[i]);
    audited.noise_multiplier *= ratio;
  }
  audited_ = std::make_shared<const DpMechanism>(audited, features);
  const std::vector<double> stds =
      audited_->noise_stds(used_, static_cast<std::size_t>(used_.cols()));
  CanaryGeometry g = canary_geometry(
      used_, canary_, stds, DpMechanism::clip_bound(mechanism.clip_norm, regions_), features_);
  coef_ = std::move(g.coef);
  direction_ = std::move(g.direction);
  message_ = std::move(g.message);
  zero_ = Eigen::VectorXd::Zero(features_);
}

std::string BufferedReleaseAudit::name() const {
  return "one release of schedule.kind buffered (K arrivals' messages, charged at q = 1)";
}

privacy::DpEvent BufferedReleaseAudit::event() const {
  // The release instant depends on who takes part: no amplification by the server's sampling.
  return privacy::DpEvent::gaussian(intact_.noise_multiplier);
}

double BufferedReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  Messages messages(static_cast<std::size_t>(used_.cols()), nullptr);
  for (const int n : arrivals_) messages[static_cast<std::size_t>(n)] = &zero_;
  const Eigen::VectorXd* canary = neighbour ? &message_ : &zero_;
  messages[static_cast<std::size_t>(canary_)] = canary;
  if (setting_.broken == BufferedBreak::charged_once)
    messages[static_cast<std::size_t>(agents_)] = canary;
  const WeightedRelease r = audited_->release(messages, used_, rng);
  return canary_statistic(coef_, direction_, r.omegas);
}

std::vector<protocol::AuditDetail> BufferedReleaseAudit::details() const {
  std::vector<protocol::AuditDetail> out = {
      {"schedule", "buffered"},
      {"buffer", fmt::format("{}", buffer_)},
      {"q", fmt::format("{} (not amplified)", intact_.sampling_rate)},
      {"z", fmt::format("{}", intact_.noise_multiplier)},
      {"clip_norm", fmt::format("{}", intact_.clip_norm)},
      {"subregions", fmt::format("{}", regions_)},
      {"agents", fmt::format("{}", agents_)},
      {"canary", fmt::format("{}", canary_)},
      {"round", fmt::format("{}", round_)},
  };
  if (setting_.noise_scale != 1)
    out.push_back({"noise_scale", fmt::format("{}", setting_.noise_scale)});
  return out;
}

}  // namespace fbosim::server

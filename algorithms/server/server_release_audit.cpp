#include "algorithms/server/server_release_audit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "algorithms/de/partition.hpp"
#include "algorithms/server/canary_geometry.hpp"

namespace fbosim::server {

ServerReleaseAudit::ServerReleaseAudit(const DpMechanism::Options& mechanism, int features,
                                       int agents, int regions,
                                       const de::WeightSchedule::Options& weights, int rounds,
                                       double noise_scale)
    : intact_(mechanism),
      noise_scale_(noise_scale),
      features_(features),
      agents_(agents),
      regions_(regions) {
  if (!(std::isfinite(noise_scale) && noise_scale > 0))
    throw std::invalid_argument(
        fmt::format("--noise-scale must be a finite number > 0, got {}", noise_scale));
  DpMechanism::Options audited = mechanism;
  audited.noise_multiplier *= noise_scale;
  audited_ = std::make_shared<const DpMechanism>(audited, features);
  choose_canary(weights, rounds);
  // Likelihood-ratio direction of the canary's mean shift w_c^(i) (S / sqrt(P)) v / g in
  // sub-region i against independent noise of std sigma_i: sum_i w_c^(i) / sigma_i^2 <., v>.
  const std::vector<double> stds =
      audited_->noise_stds(weights_, static_cast<std::size_t>(agents_));
  // The canary's message: on the clipping bound, in a fixed direction.
  CanaryGeometry g = canary_geometry(
      weights_, canary_, stds, DpMechanism::clip_bound(audited.clip_norm, regions_), features_);
  coef_ = std::move(g.coef);
  direction_ = std::move(g.direction);
  message_ = std::move(g.message);
  opposite_ = std::move(g.opposite);
}

void ServerReleaseAudit::choose_canary(const de::WeightSchedule::Options& options, int rounds) {
  const de::Partition partition(1, regions_);  // the engine's agent -> sub-region rule
  std::vector<int> region(static_cast<std::size_t>(agents_));
  for (int a = 0; a < agents_; ++a)
    region[static_cast<std::size_t>(a)] = partition.region_of_agent(a);
  const de::WeightSchedule schedule(options);
  const double g = audited_->sampling_fraction(static_cast<std::size_t>(agents_));
  const double bound = DpMechanism::clip_bound(intact_.clip_norm, regions_);
  // The rounds that release (0 .. rounds - 1); the first weights and agent with the largest
  // whitened shift win, so the choice is deterministic.
  for (int t = 0; t < std::max(1, rounds); ++t) {
    const Eigen::MatrixXd w = schedule.weights(t, region, regions_);
    const std::vector<double> stds = audited_->noise_stds(w, static_cast<std::size_t>(agents_));
    for (Eigen::Index a = 0; a < agents_; ++a) {
      double shift2 = 0;
      for (int i = 0; i < regions_; ++i) {
        const double d = w(i, a) * bound / g / stds[static_cast<std::size_t>(i)];
        shift2 += d * d;
      }
      if (std::sqrt(shift2) > shift_ * (1 + 1e-12)) {
        shift_ = std::sqrt(shift2);
        round_ = t;
        canary_ = static_cast<int>(a);
        weights_ = w;
      }
    }
  }
}

std::string ServerReleaseAudit::name() const {
  return "the server's release of one round (DP-FTS-DE Algo. 1, lines 5-13)";
}

privacy::DpEvent ServerReleaseAudit::event() const {
  return DpMechanism::event(intact_, static_cast<std::size_t>(agents_));
}

double ServerReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  Messages messages(static_cast<std::size_t>(agents_), nullptr);
  if (neighbour) {
    messages[static_cast<std::size_t>(canary_)] = &message_;
  } else if (intact_.sampling == privacy::Sampling::fixed) {
    // Fixed-size sampling is accounted for replace-one neighbours: D replaces the canary's
    // message by its opposite.
    messages[static_cast<std::size_t>(canary_)] = &opposite_;
  }
  const WeightedRelease r = audited_->release(messages, weights_, rng);
  return canary_statistic(coef_, direction_, r.omegas);
}

std::vector<protocol::AuditDetail> ServerReleaseAudit::details() const {
  std::vector<protocol::AuditDetail> out = {
      {"q", fmt::format("{}", intact_.sampling_rate)},
      {"z", fmt::format("{}", intact_.noise_multiplier)},
      {"clip_norm", fmt::format("{}", intact_.clip_norm)},
      {"subregions", fmt::format("{}", regions_)},
      {"agents", fmt::format("{}", agents_)},
      {"canary", fmt::format("{}", canary_)},
      {"round", fmt::format("{}", round_)},
      {"sensitivity_fraction", fmt::format("{}", sensitivity_fraction())},
  };
  if (noise_scale_ != 1) out.push_back({"noise_scale", fmt::format("{}", noise_scale_)});
  return out;
}

}  // namespace fbosim::server

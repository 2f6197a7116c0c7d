#include "algorithms/server/trust_release_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "algorithms/server/canary_geometry.hpp"
#include "algorithms/server/server_release_audit.hpp"

namespace fbosim::server {

namespace {

// The statistic of a release the adversary sees to be the same under both inputs (the canary
// not in the sum, or sending nothing): below every threshold.
constexpr double kUninformative = -std::numeric_limits<double>::max();

bool summed(const WeightedRelease& r, int agent) {
  if (!r.charges) return false;
  for (const auto& c : r.charges->server)
    if (c.everyone || std::find(c.agents.begin(), c.agents.end(), agent) != c.agents.end())
      return true;
  return false;
}

}  // namespace

TrustReleaseAudit::TrustReleaseAudit(const DpMechanism::Options& mechanism, int features,
                                     int agents, int regions,
                                     const de::WeightSchedule::Options& weights, int rounds,
                                     Setting setting)
    : intact_(mechanism),
      setting_(setting),
      features_(features),
      agents_(agents),
      regions_(regions) {
  const Trust trust = mechanism.trust.trust;
  if (trust == Trust::central)
    throw std::invalid_argument("TrustReleaseAudit audits server.trust distributed or local");
  if (!(std::isfinite(setting.noise_scale) && setting.noise_scale > 0))
    throw std::invalid_argument(
        fmt::format("--noise-scale must be a finite number > 0, got {}", setting.noise_scale));
  if (!(setting.dropout >= 0 && setting.dropout < 1))
    throw std::invalid_argument(
        fmt::format("audit dropout must be in [0, 1), got {}", setting.dropout));
  if (setting.dropout > 0 && mechanism.sampling_rate != 1)
    throw std::invalid_argument(
        "an audit with dropouts needs server.sampling_rate 1 (the charged noise depends on the "
        "number selected)");
  const bool distributed = trust == Trust::distributed;
  const bool by_server = distributed && mechanism.trust.sampled_by == Sampler::server;
  if ((setting.broken == TrustBreak::local_radius && distributed) ||
      (setting.broken == TrustBreak::forget_shares && !distributed) ||
      (setting.broken == TrustBreak::claim_amplification && !by_server) ||
      (setting.broken == TrustBreak::reveal_coin && !mechanism.trust.local_coin))
    throw std::invalid_argument("the broken variant does not apply to this trust model");
  DpMechanism::Options audited = mechanism;
  audited.noise_multiplier *= setting.noise_scale;
  audited.trust.local_z *= setting.noise_scale;
  // Calibrated to the radius S / sqrt(P) instead of the diameter: half the noise.
  if (setting.broken == TrustBreak::local_radius) audited.trust.local_z *= 0.5;
  // Only the agents whose coin says yes send: the coin is no longer secret.
  if (setting.broken == TrustBreak::reveal_coin) audited.trust.local_coin = false;
  audited_ = std::make_shared<const DpMechanism>(audited, features);
  // The canary and round of the central audit (the same weights and sensitivity).
  DpMechanism::Options central = mechanism;
  central.trust = TrustOptions{};
  const ServerReleaseAudit chooser(central, features, agents, regions, weights, rounds, 1.0);
  round_ = chooser.round();
  canary_ = chooser.canary();
  weights_ = chooser.weights();
  const std::vector<double> stds = audited_->noise_stds(weights_, static_cast<std::size_t>(agents));
  // The same test statistic and canary message as ServerReleaseAudit's.
  CanaryGeometry g = canary_geometry(
      weights_, canary_, stds, DpMechanism::clip_bound(mechanism.clip_norm, regions_), features_);
  coef_ = std::move(g.coef);
  direction_ = std::move(g.direction);
  message_ = std::move(g.message);
  opposite_ = std::move(g.opposite);
  zero_ = Eigen::VectorXd::Zero(features_);
  dropped_ = static_cast<int>(std::floor(setting.dropout * (agents_ - 1)));
}

std::string TrustReleaseAudit::name() const {
  if (intact_.trust.trust == Trust::local)
    return "one agent's locally privatised message (server.trust: local)";
  if (intact_.trust.sampled_by == Sampler::server)
    return "the secure sum of one round and its selection (server.trust: distributed, "
           "server.sampled_by: server)";
  return "the secure sum of one round (server.trust: distributed, server.sampled_by: agents)";
}

privacy::DpEvent TrustReleaseAudit::event() const {
  const TrustOptions& t = intact_.trust;
  if (t.trust == Trust::local)
    return DpMechanism::event(intact_, static_cast<std::size_t>(agents_));
  // At q = 1 (dropouts) every agent is in the sum: m = N, m' = N - dropped.
  double z = intact_.noise_multiplier;
  if (setting_.dropout > 0 && setting_.broken != TrustBreak::forget_shares)
    z = ShareCalibration(t, agents_).effective_z(z, agents_ - dropped_);
  if (t.sampled_by == Sampler::agents || setting_.broken == TrustBreak::claim_amplification)
    return privacy::sampled_gaussian(intact_.sampling, intact_.sampling_rate, z, agents_);
  return privacy::DpEvent::gaussian(z);
}

double TrustReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  const bool local = intact_.trust.trust == Trust::local;
  Messages messages(static_cast<std::size_t>(agents_), local ? nullptr : &zero_);
  const Eigen::VectorXd* canary = neighbour ? &message_ : (local ? &opposite_ : &zero_);
  messages[static_cast<std::size_t>(canary_)] = canary;
  // The first `dropped_` other agents' messages are lost.
  for (int n = 0, lost = 0; n < agents_ && lost < dropped_; ++n)
    if (n != canary_) {
      messages[static_cast<std::size_t>(n)] = nullptr;
      ++lost;
    }
  const WeightedRelease r = audited_->release(messages, weights_, rng);
  const bool seen_in_sum = intact_.trust.sampled_by == Sampler::server || local;
  if (seen_in_sum && !summed(r, canary_)) return kUninformative;
  if (r.omegas.empty()) return kUninformative;  // aborted: the same under both inputs
  return canary_statistic(coef_, direction_, r.omegas);
}

std::vector<protocol::AuditDetail> TrustReleaseAudit::details() const {
  std::vector<protocol::AuditDetail> out = {
      {"trust", kTrustNames.name(intact_.trust.trust)},
      {"q", fmt::format("{}", intact_.sampling_rate)},
      {"z", fmt::format("{}", intact_.noise_multiplier)},
      {"clip_norm", fmt::format("{}", intact_.clip_norm)},
      {"subregions", fmt::format("{}", regions_)},
      {"agents", fmt::format("{}", agents_)},
      {"canary", fmt::format("{}", canary_)},
      {"round", fmt::format("{}", round_)},
  };
  if (intact_.trust.trust == Trust::local) {
    out.push_back({"local_z", fmt::format("{}", intact_.trust.local_z)});
    if (intact_.trust.local_coin) out.push_back({"local_coin", "true"});
  } else {
    out.push_back({"sampled_by", kSamplerNames.name(intact_.trust.sampled_by)});
  }
  if (setting_.dropout > 0) out.push_back({"dropped", fmt::format("{}", dropped_)});
  if (setting_.noise_scale != 1)
    out.push_back({"noise_scale", fmt::format("{}", setting_.noise_scale)});
  return out;
}

}  // namespace fbosim::server

#include "algorithms/agents/fts_target_agent.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::agents {

double fts_own_probability(ExplorationSchedule schedule, int t) {
  return local_probability(schedule, std::max(t, 2));
}

int draw_source(const std::vector<int>& available, const std::vector<double>& weights,
                core::RngStream& rng) {
  if (available.empty()) return -1;
  if (weights.empty()) return available[rng.uniform_int(available.size())];
  const auto w = [&weights](int n) { return weights.at(static_cast<std::size_t>(n)); };
  double total = 0;
  for (int n : available) total += w(n);
  if (!(total > 0)) return -1;
  const double u = rng.uniform() * total;
  double cumulative = 0;
  int last = -1;  // the last source of positive weight: u * total may round up to the total
  for (int n : available) {
    if (!(w(n) > 0)) continue;
    cumulative += w(n);
    last = n;
    if (u < cumulative) return n;
  }
  return last;
}

FtsTargetAgent::FtsTargetAgent(int id, std::shared_ptr<const SharedContext> context,
                               FtsTargetOptions options)
    : id_(id),
      ctx_(std::move(context)),
      options_(options),
      ts_(id, ctx_->domain, options.local, options.init_points) {}

std::vector<Eigen::VectorXd> FtsTargetAgent::initial_points(core::RngStream& rng) const {
  std::vector<Eigen::VectorXd> points;
  const core::Box unit = core::Box::unit(ctx_->domain.dim);
  for (int k = 0; k < options_.init_points; ++k)
    points.push_back(random_point(ctx_->domain, unit, rng));
  return points;
}

void FtsTargetAgent::receive(const protocol::Broadcast& broadcast) {
  const auto* peers = std::get_if<protocol::PeerMessages>(&broadcast);
  if (!peers) return;
  if (samples_.size() < peers->messages.size()) {
    samples_.resize(peers->messages.size());
    used_.resize(peers->messages.size(), false);
  }
  for (std::size_t n = 0; n < peers->messages.size(); ++n) {
    const auto& m = peers->messages[n];
    if (!m || static_cast<int>(n) == id_) continue;
    if (!std::holds_alternative<protocol::RffSample>(*m))
      throw std::invalid_argument(fmt::format(
          "FTS target agent {}: agent {} sent a posterior summary, not a sample omega", id_, n));
    samples_[n] = m;
  }
}

std::vector<int> FtsTargetAgent::available() const {
  std::vector<int> out;
  for (std::size_t n = 0; n < samples_.size(); ++n)
    if (samples_[n] && (options_.reuse_sources || !used_[n])) out.push_back(static_cast<int>(n));
  return out;
}

protocol::Proposal FtsTargetAgent::propose(int t, const protocol::Broadcast& broadcast,
                                           core::RngStream& rng, const core::RngFactory& streams) {
  receive(broadcast);
  const bool own = rng.bernoulli(fts_own_probability(options_.schedule, t));
  const int n = own ? -1 : draw_source(available(), options_.source_weights, rng);
  protocol::Proposal p;
  if (n < 0) {
    p = {ts_.step(rng, streams), "local"};
  } else {
    const auto& omega = std::get<protocol::RffSample>(*samples_[static_cast<std::size_t>(n)]).omega;
    p = {ctx_->argmax(omega, acq::BoxMaximiser(options_.local.maximiser), rng,
                      options_.local.acquisition),
         "peer"};
    used_[static_cast<std::size_t>(n)] = true;
    ++peer_steps_;
  }
  // [CODE-FTS]: a repeated query is replaced by a uniformly random point.
  if (ts_.already_queried(p.x))
    p.x = random_point(ctx_->domain, core::Box::unit(ctx_->domain.dim), rng);
  return p;
}

}  // namespace fbosim::agents

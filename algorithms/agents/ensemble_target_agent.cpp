#include "algorithms/agents/ensemble_target_agent.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/acquisition/candidate_argmax.hpp"
#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/ensemble/rgpe_score.hpp"
#include "algorithms/ensemble/rgpe_weights.hpp"
#include "algorithms/ensemble/taf_score.hpp"
#include "algorithms/ensemble/taf_weights.hpp"
#include "algorithms/surrogate/exact_gp.hpp"

namespace fbosim::agents {

EnsembleTargetAgent::EnsembleTargetAgent(int id, std::shared_ptr<const SharedContext> context,
                                         EnsembleOptions options)
    : id_(id),
      ctx_(std::move(context)),
      options_(options),
      ts_(id, ctx_->domain, options.local, options.init_points) {}

std::vector<Eigen::VectorXd> EnsembleTargetAgent::initial_points(core::RngStream& rng) const {
  std::vector<Eigen::VectorXd> points;
  const core::Box unit = core::Box::unit(ctx_->domain.dim);
  for (int k = 0; k < options_.init_points; ++k)
    points.push_back(random_point(ctx_->domain, unit, rng));
  return points;
}

void EnsembleTargetAgent::receive(const protocol::Broadcast& broadcast) {
  const auto* peers = std::get_if<protocol::PeerMessages>(&broadcast);
  if (!peers) return;
  if (by_agent_.size() < peers->messages.size()) by_agent_.resize(peers->messages.size());
  for (std::size_t n = 0; n < peers->messages.size(); ++n) {
    const auto& m = peers->messages[n];
    if (!m || static_cast<int>(n) == id_) continue;
    const auto* s = std::get_if<protocol::GpSummary>(m.get());
    if (!s)
      throw std::invalid_argument(fmt::format(
          "RGPE / TAF target agent {}: agent {} sent a sample, not its posterior (nu, Sigma^-1)",
          id_, n));
    by_agent_[n] = std::make_unique<ensemble::SourcePosterior>(
        s->nu, s->sigma_inverse, options_.message_lambda, s->incumbent);
  }
}

Eigen::VectorXd EnsembleTargetAgent::maximise(const acq::ScoreMaximiser::Score& score,
                                              core::RngStream& rng) const {
  const core::Domain& d = ctx_->domain;
  if (d.is_grid()) return d.grid.row(acq::CandidateArgmax::argmax(score.batch(d.grid))).transpose();
  return acq::maximise_score(options_.local.acquisition,
                             acq::ScoreMaximiser(options_.local.maximiser), score,
                             core::Box::unit(d.dim), rng)
      .x;
}

protocol::Proposal EnsembleTargetAgent::propose(int /*t*/, const protocol::Broadcast& broadcast,
                                                core::RngStream& rng,
                                                const core::RngFactory& streams) {
  receive(broadcast);
  std::vector<ensemble::SourcePosterior> sources;
  for (const auto& s : by_agent_)
    if (s) sources.push_back(*s);
  const Eigen::MatrixXd X = ts_.data();
  const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(
      ts_.outputs().data(), static_cast<Eigen::Index>(ts_.outputs().size()));
  surrogate::ExactGp::Options gp_options;
  gp_options.prior_mean = ts_.options().prior_mean;   // gp.mean (0: the papers' zero-mean GP)
  const gp::SeHyper& h = ts_.current_hyper(streams);  // fitted first if a fit is due
  // gp.kernel / gp.ard: the same exact GP with that kernel (ts_.kernel_hyper(): the fitted length
  // scales); the default isotropic SE kernel keeps the SeHyper GP, bit for bit.
  surrogate::ExactGp gp =
      ts_.options().kernel.is_default()
          ? surrogate::ExactGp(ctx_->domain.dim, h, gp_options)
          : surrogate::ExactGp(ctx_->domain.dim, ts_.kernel_hyper(), gp_options);
  gp.fit(X, y);
  const double y_max = y.size() > 0 ? y.maxCoeff() : 0.0;
  const rff::RandomFeatures& phi = ctx_->features;
  protocol::Proposal p{Eigen::VectorXd(), "ensemble"};
  if (options_.method == EnsembleOptions::Method::rgpe) {
    weights_ =
        ensemble::rgpe_weights(sources, phi, gp, X, y, rng, {options_.samples, options_.variant});
    const ensemble::RgpeScore score(phi, sources, weights_, gp, y_max, options_.variant);
    p.x = maximise(score.score(), rng);
  } else {
    weights_ = ensemble::taf_weights(sources, phi, X, y, options_.variant, options_.bandwidth);
    const ensemble::TafScore score(phi, sources, weights_, gp, y_max, options_.variant, &rng);
    p.x = maximise(score.score(), rng);
  }
  // [CODE-FTS]: a repeated query is replaced by a uniformly random point.
  if (ts_.already_queried(p.x))
    p.x = random_point(ctx_->domain, core::Box::unit(ctx_->domain.dim), rng);
  return p;
}

}  // namespace fbosim::agents

#include "algorithms/agents/fts_source_agent.hpp"

#include <limits>
#include <stdexcept>

namespace fbosim::agents {

FtsSourceAgent::FtsSourceAgent(int id, std::shared_ptr<const SharedContext> context,
                               const protocol::History& own, const protocol::History& message,
                               FtsSourceOptions options)
    : ctx_(std::move(context)),
      options_(options),
      ts_(id, ctx_->domain, options.local, options.init_points),
      blr_(ctx_->features.size(), options.message_lambda),
      incumbent_(-std::numeric_limits<double>::infinity()) {
  for (Eigen::Index k = 0; k < own.X.rows(); ++k) ts_.observe(own.X.row(k).transpose(), own.y[k]);
  for (Eigen::Index k = 0; k < message.X.rows(); ++k) {
    blr_.add(ctx_->feature(message.X.row(k).transpose()), message.y[k]);
    incumbent_ = std::max(incumbent_, message.y[k]);
  }
}

protocol::Proposal FtsSourceAgent::propose(int /*t*/, const protocol::Broadcast& /*broadcast*/,
                                           core::RngStream& rng, const core::RngFactory& streams) {
  if (!options_.general)
    throw std::logic_error("an FTS source agent of the simple setting does not query");
  protocol::Proposal p{ts_.step(rng, streams), "local"};
  if (ts_.already_queried(p.x))
    p.x = random_point(ctx_->domain, core::Box::unit(ctx_->domain.dim), rng);
  return p;
}

void FtsSourceAgent::observe(const Eigen::VectorXd& x, double y) {
  ts_.observe(x, y);
  blr_.add(ctx_->feature(x), y);
  incumbent_ = std::max(incumbent_, y);
}

std::optional<protocol::Message> FtsSourceAgent::report(int round, core::RngStream& rng) {
  if (!options_.general && round > 0) return std::nullopt;
  if (options_.message == SourceMessage::sample) return protocol::RffSample{blr_.sample(rng)};
  protocol::GpSummary s{blr_.mean(), blr_.covariance() / blr_.lambda(), std::nullopt};
  if (options_.message == SourceMessage::summary_with_incumbent) s.incumbent = incumbent_;
  return s;
}

}  // namespace fbosim::agents

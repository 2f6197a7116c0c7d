#include "algorithms/agents/fts_de_agent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/rff/grid_features.hpp"

namespace fbosim::agents {

FtsDeAgent::FtsDeAgent(int id, std::shared_ptr<const SharedContext> context, AgentOptions options)
    : id_(id),
      region_(context->partition.region_of_agent(id)),
      ctx_(std::move(context)),
      options_(options),
      ts_(id, ctx_->domain, options.local, options.init_points),
      blr_(ctx_->features.size(), options.message_lambda) {}

std::vector<Eigen::VectorXd> FtsDeAgent::initial_points(core::RngStream& rng) const {
  const core::Box box =
      options_.init_in_region ? ctx_->region_boxes[region_] : core::Box::unit(ctx_->domain.dim);
  std::vector<Eigen::VectorXd> points;
  for (int k = 0; k < options_.init_points; ++k)
    points.push_back(random_point(ctx_->domain, box, rng));
  return points;
}

protocol::Proposal FtsDeAgent::propose(int t, const protocol::Broadcast& broadcast,
                                       core::RngStream& rng, const core::RngFactory& streams) {
  const auto* regions = std::get_if<protocol::RegionSamples>(&broadcast);
  // The coin is always drawn so that the stream's use does not depend on the broadcast.
  const bool local =
      rng.bernoulli(local_probability(options_.schedule, t)) || !regions || regions->omegas.empty();
  protocol::Proposal p{local ? ts_.step(rng, streams) : server_step(*regions, rng),
                       local ? "local" : "server"};
  // [code]: a repeated query is replaced by a uniformly random point.
  if (ts_.already_queried(p.x))
    p.x = random_point(ctx_->domain, core::Box::unit(ctx_->domain.dim), rng);
  return p;
}

void FtsDeAgent::observe(const Eigen::VectorXd& x, double y) {
  ts_.observe(x, y);
  blr_.add(ctx_->feature(x), y);
}

std::optional<protocol::Message> FtsDeAgent::report(int /*round*/, core::RngStream& rng) {
  return protocol::RffSample{blr_.sample(rng)};
}

Eigen::VectorXd FtsDeAgent::server_step(const protocol::RegionSamples& broadcast,
                                        core::RngStream& rng) const {
  // max over x of phi(x) . omega^(i[x]) = max over sub-regions i of the max over region i.
  // On a box, the budget of one maximisation of g (App. B.2.6: 1000 random points, 20
  // L-BFGS-B starts) is shared among the P equal-volume sub-regions [choice], so a server step
  // costs the same as a local one whatever P is.
  if (ctx_->domain.is_grid()) {
    const Eigen::Index row = ctx_->region_argmax(broadcast.omegas);  // once per round
    return row < 0 ? Eigen::VectorXd() : Eigen::VectorXd(ctx_->domain.grid.row(row).transpose());
  }
  const int P = ctx_->partition.count();
  acq::BoxMaximiser::Options share = options_.local.maximiser;
  share.random_points = std::max(1, (share.random_points + P - 1) / P);
  share.starts = std::max(1, (share.starts + P - 1) / P);
  const acq::BoxMaximiser maximiser(share);
  // acquisition.method: direct shares its evaluation budget the same way.
  acq::AcquisitionMethod how = options_.local.acquisition;
  how.direct.max_evaluations = std::max(1, (how.direct.max_evaluations + P - 1) / P);
  double best_value = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_x;
  for (int i = 0; i < P; ++i) {
    const acq::Candidate c = acq::maximise_sample(how, maximiser, ctx_->features,
                                                  broadcast.omegas[i], ctx_->region_boxes[i], rng);
    if (c.value > best_value) {
      best_value = c.value;
      best_x = c.x;
    }
  }
  return best_x;
}

}  // namespace fbosim::agents

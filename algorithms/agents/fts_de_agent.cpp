#include "algorithms/agents/fts_de_agent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "algorithms/rff/grid_features.hpp"

namespace fbosim::agents {

const char* to_string(QuerySource s) {
  switch (s) {
    case QuerySource::init:
      return "init";
    case QuerySource::local:
      return "local";
    case QuerySource::server:
      return "server";
  }
  return "?";
}

namespace {
// The grid row of x: exact for the equally spaced 1-D grid, nearest point otherwise.
Eigen::Index grid_row(const Eigen::MatrixXd& grid, const Eigen::VectorXd& x) {
  const Eigen::Index G = grid.rows();
  if (grid.cols() == 1 && G > 1 && grid(0, 0) == 0.0 && grid(G - 1, 0) == 1.0) {
    const auto j = static_cast<Eigen::Index>(std::lround(x[0] * static_cast<double>(G - 1)));
    if (j >= 0 && j < G && grid(j, 0) == x[0]) return j;
  }
  Eigen::Index best = 0;
  (grid.rowwise() - x.transpose()).rowwise().squaredNorm().minCoeff(&best);
  return best;
}
}  // namespace

FtsDeAgent::FtsDeAgent(int id, std::shared_ptr<const SharedContext> context, AgentOptions options)
    : id_(id),
      region_(context->partition.region_of_agent(id)),
      ctx_(std::move(context)),
      options_(options),
      blr_(ctx_->features.size(), options.message_lambda),
      hyper_(options.hyper) {}

Eigen::VectorXd FtsDeAgent::random_point(const core::Box& box, core::RngStream& rng) const {
  if (ctx_->domain.is_grid()) {
    // Uniform over the grid points inside the box.
    std::vector<Eigen::Index> inside;
    const Eigen::MatrixXd& g = ctx_->domain.grid;
    for (Eigen::Index j = 0; j < g.rows(); ++j) {
      const bool in = ((g.row(j).transpose().array() >= box.lo.array()) &&
                       (g.row(j).transpose().array() <= box.hi.array()))
                          .all();
      if (in) inside.push_back(j);
    }
    if (inside.empty()) inside.push_back(0);
    return g.row(inside[rng.uniform_int(inside.size())]).transpose();
  }
  Eigen::VectorXd x(box.dim());
  for (int k = 0; k < box.dim(); ++k) x[k] = rng.uniform(box.lo[k], box.hi[k]);
  return x;
}

std::vector<Eigen::VectorXd> FtsDeAgent::initial_points(core::RngStream& rng) const {
  const core::Box box =
      options_.init_in_region ? ctx_->region_boxes[region_] : core::Box::unit(ctx_->domain.dim);
  std::vector<Eigen::VectorXd> points;
  for (int k = 0; k < options_.init_points; ++k) points.push_back(random_point(box, rng));
  return points;
}

bool FtsDeAgent::already_queried(const Eigen::VectorXd& x) const {
  return std::any_of(X_.begin(), X_.end(), [&](const Eigen::VectorXd& p) { return p == x; });
}

Proposal FtsDeAgent::propose(int t, const server::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) {
  // The coin is always drawn so that the stream's use does not depend on the broadcast.
  const bool local = rng.bernoulli(local_probability(options_.schedule, t)) || broadcast.empty();
  Proposal p{local ? local_ts_step(rng, streams) : server_step(broadcast, rng),
             local ? QuerySource::local : QuerySource::server};
  // [code]: a repeated query is replaced by a uniformly random point.
  if (already_queried(p.x)) p.x = random_point(core::Box::unit(ctx_->domain.dim), rng);
  return p;
}

void FtsDeAgent::observe(const Eigen::VectorXd& x, double y) {
  X_.push_back(x);
  y_.push_back(y);
  if (ctx_->domain.is_grid()) {
    blr_.add(Eigen::VectorXd(ctx_->grid_features.row(grid_row(ctx_->domain.grid, x))), y);
  } else {
    blr_.add(ctx_->features.feature(x), y);
  }
  if (static_cast<int>(y_.size()) % options_.refit_every == 0)
    fit_target_ = static_cast<int>(y_.size());
}

Eigen::VectorXd FtsDeAgent::message(core::RngStream& rng) { return blr_.sample(rng); }

void FtsDeAgent::update_hyper(const core::RngFactory& streams) {
  // The authors' code refits whenever the observation count reaches a multiple of 5 and keeps
  // the result until the next refit. The hyperparameters matter only in local steps, so the
  // fit of the latest scheduled count is done lazily at the next local step, on the data of
  // that count and with a stream keyed by it: the same result as fitting eagerly.
  if (!options_.fit_hyper || fit_target_ <= fitted_at_) return;
  const int n = fit_target_;
  Eigen::MatrixXd X(n, ctx_->domain.dim);
  Eigen::VectorXd y(n);
  for (int k = 0; k < n; ++k) {
    X.row(k) = X_[k].transpose();
    y[k] = y_[k];
  }
  core::RngStream rng =
      streams.stream("agent.fit", static_cast<std::uint64_t>(id_), static_cast<std::uint64_t>(n));
  hyper_ = gp::HyperFitter(options_.fit).fit(X, y, hyper_, rng);
  fitted_at_ = n;
}

Eigen::VectorXd FtsDeAgent::local_ts_step(core::RngStream& rng, const core::RngFactory& streams) {
  update_hyper(streams);
  // [code]: fresh features with the agent's own hyperparameters, BLR on all its data with the
  // noise variance (floored) as regulariser, one posterior sample, maximised over the domain.
  const int dim = ctx_->domain.dim;
  const rff::RandomFeatures fresh = rff::RandomFeatures::draw(
      dim, options_.local_features, hyper_.lengthscale, hyper_.signal_var, rng);
  const double lambda = std::max(hyper_.noise_var, options_.local_noise_floor);
  const auto n = static_cast<Eigen::Index>(X_.size());
  Eigen::MatrixXd X(n, dim);
  for (Eigen::Index k = 0; k < n; ++k) X.row(k) = X_[k].transpose();
  rff::BlrPosterior blr(options_.local_features, lambda);
  blr.add(fresh.features(X), Eigen::Map<const Eigen::VectorXd>(y_.data(), n));
  const Eigen::VectorXd omega = blr.sample(rng);
  if (ctx_->domain.is_grid()) {
    Eigen::Index best = 0;
    (rff::grid_features(fresh, ctx_->domain.grid) * omega).maxCoeff(&best);
    return ctx_->domain.grid.row(best).transpose();
  }
  return acq::BoxMaximiser(options_.maximiser).maximise(fresh, omega, core::Box::unit(dim), rng).x;
}

Eigen::VectorXd FtsDeAgent::server_step(const server::Broadcast& broadcast,
                                        core::RngStream& rng) const {
  // max over x of phi(x) . omega^(i[x]) = max over sub-regions i of the max over region i.
  // On a box, the budget of one maximisation of g (App. B.2.6: 1000 random points, 20
  // L-BFGS-B starts) is shared among the P equal-volume sub-regions [choice], so a server step
  // costs the same as a local one whatever P is.
  const int P = ctx_->partition.count();
  acq::BoxMaximiser::Options share = options_.maximiser;
  share.random_points = std::max(1, (share.random_points + P - 1) / P);
  share.starts = std::max(1, (share.starts + P - 1) / P);
  const acq::BoxMaximiser maximiser(share);
  double best_value = -std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_x;
  for (int i = 0; i < P; ++i) {
    if (ctx_->domain.is_grid()) {
      for (int j : ctx_->region_points[i]) {
        const double v = ctx_->grid_features.row(j).dot(broadcast.omegas[i]);
        if (v > best_value) {
          best_value = v;
          best_x = ctx_->domain.grid.row(j).transpose();
        }
      }
    } else {
      const acq::Candidate c =
          maximiser.maximise(ctx_->features, broadcast.omegas[i], ctx_->region_boxes[i], rng);
      if (c.value > best_value) {
        best_value = c.value;
        best_x = c.x;
      }
    }
  }
  return best_x;
}

}  // namespace fbosim::agents

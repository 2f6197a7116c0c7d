#pragma once
// One DP-FTS-DE agent (Algo. 2 of Dai, Low, Jaillet 2021; spec dp-fts-de.md section 5):
// initialises in its sub-region, then each round either takes a local Thompson-sampling step
// (probability p_t) or maximises the server's broadcast g(x) = phi(x) . omega^(i[x]); after
// every observation it samples the message omega ~ N(nu_t, lambda Sigma_t^-1) of eq. 2 on the
// shared features. TS, FTS, FTS-DE, DP-FTS and DP-FTS-DE all use this class.
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/agents/shared_context.hpp"
#include "algorithms/rff/blr_posterior.hpp"
#include "algorithms/server/broadcast.hpp"

namespace fbosim::agents {

enum class QuerySource { init, local, server };
const char* to_string(QuerySource s);

/// Where the next point came from; the caller evaluates it and calls observe().
struct Proposal {
  Eigen::VectorXd x;
  QuerySource source;
};

class FtsDeAgent {
 public:
  FtsDeAgent(int id, std::shared_ptr<const SharedContext> context, AgentOptions options);

  /// Round 0: N_init uniform points in the agent's sub-region (whole domain without DE).
  std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const;
  /// Round t >= 1: the next query. broadcast may be empty (nothing received): then the step
  /// is local. streams gives the stream of a hyperparameter fit, when one is due.
  Proposal propose(int t, const server::Broadcast& broadcast, core::RngStream& rng,
                   const core::RngFactory& streams);
  /// Records an observation y at x.
  void observe(const Eigen::VectorXd& x, double y);
  /// The message omega (M-vector) sampled from the posterior on the shared features.
  Eigen::VectorXd message(core::RngStream& rng);

  int id() const { return id_; }
  int region() const { return region_; }
  int observations() const { return static_cast<int>(y_.size()); }
  const gp::SeHyper& hyper() const { return hyper_; }
  int fallback_count() const { return blr_.fallback_count(); }

 private:
  Eigen::VectorXd local_ts_step(core::RngStream& rng, const core::RngFactory& streams);
  Eigen::VectorXd server_step(const server::Broadcast& broadcast, core::RngStream& rng) const;
  Eigen::VectorXd random_point(const core::Box& box, core::RngStream& rng) const;
  bool already_queried(const Eigen::VectorXd& x) const;
  void update_hyper(const core::RngFactory& streams);

  int id_;
  int region_;
  std::shared_ptr<const SharedContext> ctx_;
  AgentOptions options_;
  std::vector<Eigen::VectorXd> X_;  // queried points
  std::vector<double> y_;           // observations
  rff::BlrPosterior blr_;           // posterior on the shared features (messages)
  gp::SeHyper hyper_;
  int fit_target_ = 0;  // observation count of the latest scheduled fit
  int fitted_at_ = 0;   // observation count the current hyper_ were fitted on
};

}  // namespace fbosim::agents

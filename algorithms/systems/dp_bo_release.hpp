#pragma once
// The final release of DpBoSystem as a strategy (issue 25): each way of releasing a tuner's
// results declares the DpEvents of one agent's release and produces exactly those, so the
// system's possible_events and run_events come from the strategy that spends them.
//   KusnerRelease (kusner_release.hpp): Kusner et al. 2015, Algorithms 1 and 2;
//   PapernotSteinkeRelease (papernot_steinke_release.hpp): Papernot & Steinke 2022;
//   KusnerLipschitzRelease (kusner_lipschitz_release.hpp): Kusner et al. 2015, Algorithm 3.
// make_dp_bo_release (dp_bo_release_factory.hpp) chooses one.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "core/convex_lipschitz_score.hpp"

namespace fbosim::systems {

struct DpBoConfig;  // dp_bo_config.hpp: what a strategy is built from

/// What one agent's GP-UCB tuning left for its final release.
struct TunedAgent {
  int agent = 0;
  std::size_t stream = 0;                       ///< index of its "release" streams
  int dim = 0;                                  ///< d, the domain's dimension
  const Eigen::MatrixXd* candidates = nullptr;  ///< Lambda, n x d
  const Eigen::VectorXd* mean = nullptr;        ///< the posterior mean mu_T on Lambda
  Eigen::Index mean_best = 0;                   ///< argmax mu_T (the non-private point)
  int observations = 0;                         ///< T, the initial points included
  double y_best = 0;                            ///< max_t y_t (the non-private value)
  double f_at_y_best = 0;                       ///< f where y_best was observed
  std::optional<double> optimum;                ///< max f of its objective, when known
  /// What its objective certifies of Kusner et al.'s Assumption 2, if anything.
  std::optional<core::ConvexLipschitzScore> lipschitz;
};

/// A release.csv row for candidate i of `agent` (its point, f and regret).
protocol::ReleaseRow candidate_row(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                                   Eigen::Index i, const std::string& quantity,
                                   const std::string& mechanism);

class DpBoRelease {
 public:
  virtual ~DpBoRelease() = default;
  /// The events of one agent's release, in the order release() appends them.
  virtual std::vector<privacy::DpEvent> agent_events() const = 0;
  /// Releases one agent's results privately: appends its rows and agent_events() to `out`.
  virtual void release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                       protocol::FinalRelease& out) const = 0;
  /// One agent's releases as auditable releases (release_audits.hpp), with the sensitivities a
  /// run computes for a tuner of `agent.observations` observations on `agent.candidates`
  /// (only those, dim and stream of `agent` are read); noise_scale multiplies their noise.
  virtual std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable(
      const TunedAgent& agent, double noise_scale) const = 0;
};

}  // namespace fbosim::systems

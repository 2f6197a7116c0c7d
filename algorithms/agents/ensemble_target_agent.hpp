#pragma once
// The target agent of the RGPE and TAF baselines adapted to federated BO (FTS, Dai, Low &
// Jaillet 2020, sec. 3.2): every source sends its RFF posterior (nu_n, Sigma_n^-1, and for TAF
// its incumbent); each iteration the target models its own data with an exact GP (the SE kernel
// of the papers, or gp.kernel / gp.ard's; hyperparameters by marginal likelihood on
// LocalThompson's schedule [CODE-FTS]), recomputes
// the ensemble weights on its observations (RGPE: ranking-loss weights, Feurer et al. 2018;
// TAF: Epanechnikov ranking weights, Wistuba et al. 2018) and maximises the ensemble
// acquisition (EI of the weighted ensemble; TAF's weighted improvements) over the domain, by
// the random points + L-BFGS-B recipe (App. B.2.6) on a box or exhaustively on a grid. The
// `authors` and `corrected` variants are algorithms/ensemble/variant.hpp's.
#include <memory>
#include <vector>

#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/agents/shared_context.hpp"
#include "algorithms/ensemble/source_posterior.hpp"
#include "algorithms/ensemble/variant.hpp"
#include "algorithms/protocol/agent_policy.hpp"

namespace fbosim::agents {

struct EnsembleOptions {
  enum class Method { rgpe, taf } method = Method::rgpe;
  ensemble::Variant variant = ensemble::Variant::authors;
  int init_points = 3;           ///< random initial inputs (FTS sec. 5.2)
  int samples = 100;             ///< RGPE's S [CODE-FTS]
  double bandwidth = 0.5;        ///< TAF's rho [CODE-FTS]
  double message_lambda = 1e-6;  ///< the sources' RFF noise variance (rff.lambda)
  LocalTsOptions local;          ///< the target GP's hyperparameters and fits; the maximiser
};

class EnsembleTargetAgent final : public protocol::AgentPolicy {
 public:
  EnsembleTargetAgent(int id, std::shared_ptr<const SharedContext> context,
                      EnsembleOptions options);

  std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const override;
  /// Reads any PeerMessages (each source's latest summary), then the weights and the
  /// acquisition's maximiser. Draws, in order: RGPE's loss samples (TAF: none), TAF-authors'
  /// random improvements and the maximiser's points, then a random point if x repeats.
  protocol::Proposal propose(int t, const protocol::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) override;
  void observe(const Eigen::VectorXd& x, double y) override { ts_.observe(x, y); }
  std::optional<protocol::Message> report(int, core::RngStream&) override { return std::nullopt; }

  /// The weights of the last proposal: sources in agent order, then the target.
  const Eigen::VectorXd& last_weights() const { return weights_; }

 private:
  void receive(const protocol::Broadcast& broadcast);
  Eigen::VectorXd maximise(const acq::ScoreMaximiser::Score& score, core::RngStream& rng) const;

  int id_;
  std::shared_ptr<const SharedContext> ctx_;
  EnsembleOptions options_;
  LocalThompson ts_;  // the data and the hyperparameter fits (its TS step is not used)
  std::vector<std::unique_ptr<ensemble::SourcePosterior>> by_agent_;  // latest, per agent id
  Eigen::VectorXd weights_;
};

}  // namespace fbosim::agents

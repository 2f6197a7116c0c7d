#pragma once
// DP-FTS-DE and the baselines built from its machinery (Dai, Low & Jaillet, NeurIPS 2021):
// every agent is an FtsDeAgent; the server aggregates the agents' samples per sub-region with
// the DE weights (RegionAggregator), privatised by subsampling, clipping and Gaussian noise
// when `dp` (PrivatizedMechanism) and plain otherwise. The registry's names are presets:
//   ts         no server; every step local (standard TS)
//   fts        P = 1, no DP          fts_de     P >= 1, no DP (the paper's FTS-DE has P > 1)
//   dp_fts     P = 1, DP             dp_fts_de  P >= 1, DP
#include <string>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/server/server_stop.hpp"
#include "schema/fwd.hpp"

namespace fbosim::protocol {
struct AlgorithmEntry;
}

namespace fbosim::systems {

struct FtsDeConfig {
  std::string name = "dp_fts_de";          ///< the registry name it was read as
  bool server = true;                      ///< false: standard TS (no messages at all)
  bool dp = true;                          ///< server.dp
  int subregions = 1;                      ///< exploration.subregions (P)
  de::WeightSchedule::Options weights;     ///< exploration.weights.*
  int features = 50;                       ///< rff.features (M)
  double rff_lengthscale = 0.03;           ///< rff.lengthscale
  std::vector<double> rff_lengthscales;    ///< rff.lengthscales (empty: rff.lengthscale)
  agents::AgentOptions agent;              ///< agents.*, exploration.schedule, rff.lambda, ...
  server::DpMechanism::Options mechanism;  ///< server.sampling*, noise_multiplier, clip_norm, w_max
  server::ServerStop stop;                 ///< server.budget, server.stop_p
  server::PersonalKeys personal;           ///< personal.* (resolved into mechanism.personal)
};

class FtsDeSystem final : public protocol::Algorithm {
 public:
  /// Throws std::invalid_argument for invalid weights or mechanism options.
  explicit FtsDeSystem(FtsDeConfig config);

  std::string name() const override { return config_.name; }
  /// Streams: "rff.shared" (the shared features of the messages).
  protocol::RunParts build(const protocol::RunInputs& inputs) const override;
  std::vector<privacy::DpEvent> possible_events(int agents) const override;
  /// One release of the server per round 0 .. T-1 (the last broadcast would go unused).
  std::vector<privacy::DpEvent> run_events(int agents, int rounds) const override;
  /// The server's release each round (DpMechanism::event: the count's event composed in with
  /// adaptive clipping) and the stop rules, server.stop_p and server.budget.
  protocol::PrivacyPlan privacy_plan(int agents) const override;
  /// received, selected, clipped, noise_std (also for TS, whose server.csv has no rows), and
  /// aggregating where a stop rule (server.budget, server.stop_p) is configured, clip_norm with
  /// adaptive clipping (server.clipping).
  std::vector<protocol::StatColumn> server_columns() const override;
  /// With DP and server.trust other than `central` or personal.* keys: per-agent charges
  /// (issue 42).
  bool charges_per_agent() const override;

  /// With DP: the server's release of one round (server::ServerReleaseAudit).
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable_releases(
      const protocol::AuditInputs& inputs) const override;

  /// Its memory and work for the refusal of absurd sizes (the dominant terms, each naming its
  /// keys).
  void estimate(const protocol::ExperimentFacts& facts,
                protocol::ResourceEstimate& estimate) const override;

  const FtsDeConfig& config() const { return config_; }

 private:
  FtsDeConfig config_;
};

/// The family's keys in reading order: agents.*, exploration.*, rff.*, local_ts.*, gp.*,
/// acquisition.*, server.dp, the mechanism's server.* and server.budget, server.stop_p.
const schema::Group<FtsDeConfig>& fts_de_keys();
/// Registers fts_de, ts, fts, dp_fts and dp_fts_de, in that order.
void register_fts_de_algorithms(schema::Registry<protocol::AlgorithmEntry>& registry);

/// The FtsDeConfig of `a` when it is an FtsDeSystem, else null: for this family's own tools
/// (`fbosim calibrate-clip`'s pilot), never for the engine's generic paths.
const FtsDeConfig* fts_de_config(const protocol::Algorithm* a);

}  // namespace fbosim::systems

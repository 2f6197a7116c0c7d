#pragma once
// FTS in its target-agent form (Dai, Low & Jaillet, NeurIPS 2020, Algorithm 1) and the RGPE /
// TAF baselines adapted to it (sec. 3.2): agent `target` (run r: r mod target_agents) runs the
// chosen method; every other agent is a source that made its own observations before the run
// (a history: t_n random inputs, sec. 5.1, or a standard-TS task of init + t_n steps, sec. 5.2
// and the authors' code) and sends the target information on the shared random features, via
// a server that forwards it (PeerForwarder). Only the target's regret is measured.
#include <string>

#include "algorithms/agents/ensemble_target_agent.hpp"
#include "algorithms/agents/fts_source_agent.hpp"
#include "algorithms/agents/fts_target_agent.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::protocol {
struct AlgorithmEntry;
}

namespace fbosim::systems {

enum class SourceHistory { random, ts };
inline constexpr schema::EnumNames<SourceHistory> kSourceHistoryNames{
    {SourceHistory::random, "random"}, {SourceHistory::ts, "ts"}};
/// rff.shared_draw: the shared random features of the messages drawn for each run (stream
/// "rff.shared" of the run) or once for the experiment (that stream of run 0, for every run: the
/// FTS authors used one saved draw, RF_M_100.pkl, for every run and method) [code].
enum class SharedDraw { per_run, per_experiment };
inline constexpr schema::EnumNames<SharedDraw> kSharedDrawNames{
    {SharedDraw::per_run, "per_run"}, {SharedDraw::per_experiment, "per_experiment"}};
enum class HistoryPairing { aligned, authors };
inline constexpr schema::EnumNames<HistoryPairing> kHistoryPairingNames{
    {HistoryPairing::aligned, "aligned"}, {HistoryPairing::authors, "authors"}};

struct FtsTargetConfig {
  std::string name = "fts_target";       ///< fts_target | rgpe | taf
  int features = 100;                    ///< rff.features (M)
  double rff_lengthscale = 0.01;         ///< rff.lengthscale
  std::vector<double> rff_lengthscales;  ///< rff.lengthscales (empty: rff.lengthscale)
  double message_lambda = 1e-6;          ///< rff.lambda: sigma^2 of eqs. 2-3 for the messages
  SharedDraw shared_draw = SharedDraw::per_run;  ///< rff.shared_draw
  int target_agents = 1;            ///< target.agents: run r's target is agent r mod this
  agents::FtsTargetOptions target;  ///< agents.init_points, target.schedule, local_ts.*, gp.*, ...
  /// rgpe / taf: ensemble.variant, ensemble.samples (RGPE), ensemble.bandwidth (TAF).
  ensemble::Variant variant = ensemble::Variant::authors;
  int samples = 100;
  double bandwidth = 0.5;
  SourceHistory history = SourceHistory::random;  ///< sources.history
  int history_points = 40;                        ///< sources.points: t_n
  int history_init = 3;  ///< sources.init_points: TS histories' initial design
  bool general = false;  ///< sources.setting: general (App. D.2.1) vs simple
  /// sources.pairing: authors reproduces the released code's pairing of the history (the code
  /// stores every x twice, so x_{k/2} is paired with y_k) [CODE-FTS].
  HistoryPairing pairing = HistoryPairing::aligned;
};

class FtsTargetSystem final : public protocol::Algorithm {
 public:
  /// Throws std::invalid_argument for out-of-range settings.
  explicit FtsTargetSystem(FtsTargetConfig config);

  std::string name() const override { return config_.name; }
  /// Streams: "rff.shared" (of run 0 with rff.shared_draw: per_experiment); the histories come
  /// from the engine (history_request()).
  protocol::RunParts build(const protocol::RunInputs& inputs) const override;
  std::optional<protocol::HistoryRequest> history_request() const override;
  std::vector<privacy::DpEvent> possible_events(int) const override { return {}; }
  std::vector<privacy::DpEvent> run_events(int, int) const override { return {}; }
  /// Nothing private: the plain server's NoOp each round.
  protocol::PrivacyPlan privacy_plan(int) const override { return {}; }
  /// received, floats, floats_per_message (FTS sec. 3.2's communication cost).
  std::vector<protocol::StatColumn> server_columns() const override;

  /// Its memory and work for the refusal of absurd sizes (the dominant terms, each naming its
  /// keys).
  void estimate(const protocol::ExperimentFacts& facts,
                protocol::ResourceEstimate& estimate) const override;

  const FtsTargetConfig& config() const { return config_; }
  /// The part of a history the messages condition on: TS histories drop their initial design
  /// [CODE-FTS]; with the authors' pairing, x_{floor(k/2)} goes with y_k.
  protocol::History message_history(const protocol::History& history) const;

 private:
  std::unique_ptr<protocol::AgentPolicy> make_target(
      int id, std::shared_ptr<const agents::SharedContext> ctx) const;

  FtsTargetConfig config_;
};

/// The keys in reading order: agents.init_points, target.*, ensemble.*, sources.*, rff.*,
/// local_ts.*, gp.*, acquisition.*.
const schema::Group<FtsTargetConfig>& fts_target_keys();
/// Registers fts_target, rgpe and taf, in that order.
void register_fts_target_algorithms(schema::Registry<protocol::AlgorithmEntry>& registry);

}  // namespace fbosim::systems

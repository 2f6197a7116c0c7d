#pragma once
// A validated experiment: everything a run needs, with the config key of every field in its
// comment. Produced by ConfigLoader from YAML (+ --set overrides); defaults are the paper's
// synthetic setting (spec dp-fts-de.md section 7).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/de/weight_schedule.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "datasets/objective_factory.hpp"

namespace fbosim::sim {

enum class Algorithm { ts, fts_de };

/// Latency of an agent's reply, in integer ticks (1 tick = 1 ms by convention).
struct LatencySpec {
  /// The largest latency parameter accepted: 1e12 ticks (30 years at 1 ms), far from the int64
  /// range of event times.
  static constexpr double kMaxTicks = 1e12;
  std::string distribution =
      "constant";   ///< network.latency.distribution: constant|uniform|exponential
  double mean = 0;  ///< network.latency.mean (constant, exponential)
  double min = 0;   ///< network.latency.min (uniform)
  double max = 0;   ///< network.latency.max (uniform)
};

struct NetworkSpec {
  LatencySpec latency;
  std::int64_t deadline = 0;  ///< network.deadline: ticks after the broadcast; 0 = wait for all
  double dropout = 0.0;       ///< network.dropout: probability a message is lost in a round
};

struct ServerSpec {
  bool dp = true;  ///< server.dp
  server::DpMechanism::Options
      mechanism;                ///< server.sampling_rate/noise_multiplier/clip_norm/sampling/w_max
  std::optional<double> delta;  ///< server.delta (default N^-1.1)
  std::string accountant = "moments";  ///< server.accountant: the `epsilon` column
  /// server.accountants (comma-separated; `fbosim run --accountants`): extra columns
  /// epsilon_<name>, composed from the same per-round events.
  std::vector<std::string> accountants;
};

struct ExperimentSpec {
  std::string name;                         ///< name (default: the config file's stem)
  Algorithm algorithm = Algorithm::fts_de;  ///< algorithm: ts | fts_de
  int rounds = 60;                          ///< rounds: BO iterations after the initial round
  int runs = 5;                             ///< runs
  std::uint64_t seed = 0;                   ///< seed
  int agents = 200;                         ///< agents.count
  datasets::ObjectiveSpec objective;        ///< objective.*, datasets.root
  int subregions = 1;                       ///< exploration.subregions (P)
  de::WeightSchedule::Options weights;      ///< exploration.weights.*
  int features = 50;                        ///< rff.features (M)
  double rff_lengthscale = 0.03;            ///< rff.lengthscale
  agents::AgentOptions
      agent;  ///< agents.*, exploration.schedule, rff.lambda, local_ts.*, gp.*, acquisition.*
  ServerSpec server;    ///< server.*
  NetworkSpec network;  ///< network.*

  /// delta for the accountant: server.delta or N^-1.1.
  double delta() const;
};

}  // namespace fbosim::sim

#pragma once
// Settings of one DP-FTS-DE agent (Dai, Low & Jaillet 2021, Algo. 2). Standard TS is the same
// agent with schedule = local.
#include "algorithms/agents/exploration_schedule.hpp"
#include "algorithms/agents/local_thompson.hpp"
#include "schema/fwd.hpp"

namespace fbosim::agents {

struct AgentOptions {
  int init_points = 10;        ///< N_init
  bool init_in_region = true;  ///< false: whole-domain initialisation (Fig. 5 ablation)
  ExplorationSchedule schedule = ExplorationSchedule::inv_sqrt;
  double message_lambda = 0.01;  ///< lambda of eq. 2 for the shared-feature messages
  LocalTsOptions local;          ///< the local TS step (local_ts.*, gp.*, acquisition.*)
};

/// agents.init_points, the size of an agent's initial design: one key that every system
/// mounts on its own member (AgentOptions, FtsTargetOptions, GpUcbOptions).
const schema::Group<int>& init_points_keys();
/// gp.mean, the GP's constant prior mean m0: one key that every system with a GP of its own
/// mounts on its own member (LocalTsOptions, GpUcbOptions).
const schema::Group<double>& prior_mean_keys();
/// agents.init_points, agents.init (the DP-FTS-DE family's agents).
const schema::Group<AgentOptions>& agent_keys();

}  // namespace fbosim::agents

#pragma once
// Settings of one DP-FTS-DE agent (Algo. 2; spec dp-fts-de.md section 5). Standard TS is the
// same agent with schedule = local.
#include "algorithms/agents/exploration_schedule.hpp"
#include "algorithms/agents/local_thompson.hpp"

namespace fbosim::agents {

struct AgentOptions {
  int init_points = 10;        ///< N_init
  bool init_in_region = true;  ///< false: whole-domain initialisation (Fig. 5 ablation)
  ExplorationSchedule schedule = ExplorationSchedule::inv_sqrt;
  double message_lambda = 0.01;  ///< lambda of eq. 2 for the shared-feature messages
  LocalTsOptions local;          ///< the local TS step (local_ts.*, gp.*, acquisition.*)
};

}  // namespace fbosim::agents

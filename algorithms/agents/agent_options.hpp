#pragma once
// Settings of one DP-FTS-DE agent (Algo. 2; spec dp-fts-de.md section 5). Standard TS is the
// same agent with schedule = local.
#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/agents/exploration_schedule.hpp"
#include "algorithms/gp/hyper_fitter.hpp"
#include "algorithms/gp/se_kernel.hpp"

namespace fbosim::agents {

struct AgentOptions {
  int init_points = 10;        ///< N_init
  bool init_in_region = true;  ///< false: whole-domain initialisation (Fig. 5 ablation)
  ExplorationSchedule schedule = ExplorationSchedule::inv_sqrt;
  double message_lambda = 0.01;        ///< lambda of eq. 2 for the shared-feature messages
  int local_features = 100;            ///< M_target of the local TS step [code]
  double local_noise_floor = 1e-5;     ///< noise variance floor of the local TS step [code]
  gp::SeHyper hyper{0.03, 1.0, 0.01};  ///< initial (or fixed) GP hyperparameters
  bool fit_hyper = false;              ///< learn them by marginal likelihood [code]
  int refit_every = 5;                 ///< refit when the observation count is a multiple
  gp::HyperFitter::Options fit;
  acq::BoxMaximiser::Options maximiser;
};

}  // namespace fbosim::agents

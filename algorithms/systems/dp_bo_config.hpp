#pragma once
// dp_bo's settings (dp_bo_system.hpp has the system and the paper), in a file of their own so
// that the release strategies read them without seeing the system that holds one of them.
#include <optional>
#include <string>

#include "algorithms/agents/gp_ucb_agent.hpp"
#include "algorithms/release/private_selection.hpp"
#include "schema/enum_names.hpp"

namespace fbosim::systems {

enum class ReleaseMechanism { kusner, papernot_steinke, kusner_lipschitz };
inline constexpr schema::EnumNames<ReleaseMechanism> kReleaseMechanismNames{
    {ReleaseMechanism::kusner, "kusner"},
    {ReleaseMechanism::papernot_steinke, "papernot_steinke"},
    {ReleaseMechanism::kusner_lipschitz, "kusner_lipschitz"}};
enum class Observations { noisy, noise_free };
inline constexpr schema::EnumNames<Observations> kObservationsNames{
    {Observations::noisy, "noisy"}, {Observations::noise_free, "noise_free"}};

struct DpBoConfig {
  std::string name = "dp_bo";
  int per_axis = 8;  ///< candidates.per_axis (box domains)
  /// gp.lengthscale 0.2, gp.noise_var 1e-3 (0 with noise-free observations: the reader's
  /// derived default); delta' = delta / 3
  agents::GpUcbOptions ucb{.hyper = {0.2, 1.0, 1e-3}};
  ReleaseMechanism mechanism = ReleaseMechanism::kusner;  ///< release.mechanism
  Observations observations = Observations::noisy;        ///< release.observations
  bool hyperparameter = true;                             ///< release.hyperparameter
  bool value = true;                                      ///< release.value
  double epsilon = 1;              ///< release.epsilon (each Kusner release; P&S: the total)
  double delta = 1e-3;             ///< release.delta (each Kusner release; P&S: its delta)
  double neighbour_kernel = 0.99;  ///< release.neighbour_kernel: k_V(V, V') [input, A8]
  bool greedy_gamma = true;        ///< release.gamma_bound: greedy | trivial
  std::optional<double> de_freitas_a, de_freitas_tau;  ///< release.de_freitas.{a,tau}
  release::PrivateSelectionOptions selection;  ///< release.repetitions.*, release.score_sensitivity
};

}  // namespace fbosim::systems

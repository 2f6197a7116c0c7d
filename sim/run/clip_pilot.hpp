#pragma once
// Choosing the clip norm S of the DP-FTS-DE family for a user's own objective (issue 39): the
// default S = 11 is the synthetic paper's (Dai, Low & Jaillet 2021, App. B.2.1), tuned to its
// functions; another objective's messages may be far larger (most clipped: the aggregate is
// biased towards 0) or far smaller (the noise, z w_max S / q, swamps them). A short pilot of the
// config without DP records the L2 norm of every message the server receives, and S is the
// smallest value that leaves a chosen share of them unclipped. `fbosim calibrate-clip` prints it
// (sim/cli/calibrate_clip_command.cpp). The pilot reads the objective without privacy: an S
// chosen from private data is not itself private (adaptive clipping, Andrew et al. 2021, is the
// private alternative).
#include <string>
#include <vector>

#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

/// The smallest of `norms` that at most a fraction 1 - gamma of them exceed: the order
/// statistic x_(ceil(gamma n)) (a message is clipped when its norm exceeds the bound,
/// DpMechanism::clip). A NaN counts as +inf (DpMechanism clips a non-finite message). Throws
/// std::invalid_argument for no norms or gamma outside (0, 1].
double unclipped_quantile(std::vector<double> norms, double gamma);
/// The fraction of `norms` above `bound` (NaN: above any bound); 0 for no norms.
double clipped_fraction(const std::vector<double>& norms, double bound);

/// A run that clipped more than this fraction of its messages with a fixed clip norm warns.
inline constexpr double kClippedWarning = 0.1;
/// The warning of a run of `spec` that clipped `fraction` of its messages: "" unless its
/// server is private with a fixed clip norm and the fraction exceeds kClippedWarning (adaptive
/// clipping aims at a share of its own, server.clip_quantile).
std::string clipping_warning(const config::ExperimentSpec& spec, double fraction);

/// What a pilot saw.
struct ClipPilot {
  std::vector<double> norms;  ///< |omega_n| of every message received, in arrival order
  int regions = 1;            ///< P: a message is clipped to S / sqrt(P)
};

/// Runs runs 0 .. runs - 1 of `spec` for `rounds` rounds without DP (no subsampling, clipping
/// or noise; no stop rule), recording the norm of every message its server receives. Throws
/// std::invalid_argument unless the algorithm is of the DP-FTS-DE family with a server.
ClipPilot run_clip_pilot(const config::ExperimentSpec& spec, int rounds, int runs, int threads);

}  // namespace fbosim::run

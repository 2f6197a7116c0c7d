#pragma once
// The mechanisms of the differentially private release of BO results (issue #12; Kusner,
// Gardner, Garnett & Weinberger, "Differentially Private Bayesian Optimization", ICML 2015):
// the exponential mechanism (Kusner et al. Def. 4, McSherry & Talwar, "Mechanism Design via
// Differential Privacy", FOCS 2007: P(i) proportional to exp(epsilon q_i / (2 Delta)) for a
// score q of sensitivity Delta) and the Laplace mechanism (Kusner et al. Def. 3, Dwork,
// McSherry, Nissim & Smith, "Calibrating Noise to Sensitivity in Private Data Analysis", TCC
// 2006: the output plus Laplace(0, Delta / epsilon) noise). Kusner et al. state both in the
// standard form of these two papers (their Defs. 3-4 cite them), which is the form used here
// [reconstructed: the formulas of Defs. 3-4 are missing from our text of the paper; the
// standard forms are those of the cited papers]. Both are pure epsilon-DP for a score of the stated
// sensitivity; Kusner et al.'s sensitivities hold with probability 1 - delta only, which is why
// their releases are (epsilon, delta) events (kusner_sensitivity.hpp).
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::release {

/// P[i] = exp(epsilon q_i / (2 sensitivity)) / Z for the scores q (an n-vector, finite),
/// computed in log space (max subtracted). epsilon, sensitivity > 0.
Eigen::VectorXd exponential_probabilities(const Eigen::VectorXd& scores, double epsilon,
                                          double sensitivity);
/// One draw of the exponential mechanism: the index whose cumulative probability first
/// exceeds one uniform from rng.
Eigen::Index exponential_mechanism(const Eigen::VectorXd& scores, double epsilon,
                                   double sensitivity, core::RngStream& rng);
/// One Laplace(0, scale) draw by the inverse CDF of one uniform u in [0, 1):
/// -scale sgn(v) log(1 - 2|v|), v = u - 1/2 (v = -1/2 maps to the next double above it).
double laplace_noise(double scale, core::RngStream& rng);

}  // namespace fbosim::release

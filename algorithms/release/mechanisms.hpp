#pragma once
// The mechanisms of the differentially private release of BO results (issue #12; Kusner,
// Gardner, Garnett & Weinberger, "Differentially Private Bayesian Optimization", ICML 2015):
// the exponential mechanism (McSherry & Talwar 2007; Kusner et al. Def. 4 [R-std in spec
// dp-bo.md: every formula of the paper was stripped from our copy]) and the Laplace mechanism
// (Dwork et al. 2006; Def. 3 [R-std]). Both are pure epsilon-DP for a score of the stated
// sensitivity; Kusner et al.'s sensitivities hold with probability 1 - delta only, which is why
// their releases are (epsilon, delta) events (kusner_sensitivity.hpp).
#include <Eigen/Core>

#include "sim/core/rng.hpp"

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

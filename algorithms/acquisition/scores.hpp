#pragma once
// Acquisition scores computed from a posterior mean and variance (of the latent f), vectorised
// over candidates. They see numbers, never a model (issue #11: the optimiser never sees a
// model), so they serve the exact GP, the RFF posterior and the RGPE / TAF ensembles alike.
#include <Eigen/Core>

namespace fbosim::acq {

/// A score at one point and its partial derivatives w.r.t. the mean and the variance, for the
/// chain rule d score / dx = d_mean * d mean / dx + d_var * d var / dx.
struct ScoreGrad {
  double value = 0.0;
  double d_mean = 0.0;
  double d_var = 0.0;
};

/// GP-UCB: mean + sqrt(beta * var), the form of Srinivas et al. (2010) used by PO-GP-UCB
/// (Kharkovskii, Dai & Low 2020, Alg. 2: mu + beta_t^1/2 sigma). beta >= 0 multiplies the
/// variance; a rule that multiplies the standard deviation by c (FTS's beta_t) passes c^2.
/// mean, var: m-vectors (var >= 0); returns an m-vector.
Eigen::VectorXd ucb(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double beta);
/// One point. At var = 0 the score is not differentiable in var; d_var is reported as 0 there.
ScoreGrad ucb(double mean, double var, double beta);

/// Expected improvement over `best` with margin xi (Jones et al. 1998; FTS sec. 3.2 as used
/// for RGPE/TAF): with s = sqrt(var), u = mean - best - xi and z = u / s,
/// EI = u Phi(z) + s phi(z); at s = 0, EI = max(u, 0). mean, var: m-vectors; var >= 0.
Eigen::VectorXd expected_improvement(const Eigen::VectorXd& mean, const Eigen::VectorXd& var,
                                     double best, double xi = 0.0);
/// One point, with d EI / d mean = Phi(z) and d EI / d var = phi(z) / (2 s) (0 at s = 0).
ScoreGrad expected_improvement(double mean, double var, double best, double xi = 0.0);

}  // namespace fbosim::acq

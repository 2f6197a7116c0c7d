#pragma once
// One posterior sample omega ~ N(nu_t, lambda Sigma_t^-1) of DP-FTS-DE eq. 2 from all the
// observations at once (a local Thompson-sampling step conditions fresh features on them).
// While n < M the dual (n x n) form is cheaper: omega is the prior N(0, I) draw w corrected by
// Matheron's rule, omega = w + Phi^T (Phi Phi^T + lambda I)^-1 (y - Phi w - e), e ~ N(0,
// lambda I_n) (Matheron's rule as in Wilson et al. 2020, "Efficiently sampling functions from
// Gaussian process posteriors", here with the BLR of eq. 2 as the GP), which has exactly the
// distribution of eq. 2 (push-through identity) at O(n^2 M) instead of O(n M^2 + M^3).
// For n >= M it is BlrPosterior's sample.
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::rff {

/// Phi: n x M (one phi(x) per row), y: n-vector, lambda > 0. Draws M normals (w), then, in
/// the dual form, n more (e). A Sigma that is not positive definite, or a non-finite result,
/// gives the data-independent N(0, I) draw w (BlrPosterior's fallback).
Eigen::VectorXd blr_sample(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y, double lambda,
                           core::RngStream& rng);

}  // namespace fbosim::rff

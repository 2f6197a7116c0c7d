#pragma once
// Draws from a multivariate normal given by its mean and (possibly semi-definite) covariance.
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::surrogate {

/// A lower-triangular L with L L^T = C + jitter I.
struct JitteredCholesky {
  Eigen::MatrixXd L;    ///< m x m, lower triangular
  double jitter = 0.0;  ///< what was added to the diagonal (0 when C itself factorised)
};

/// Cholesky factor of a symmetric positive semi-definite C (m x m). A posterior covariance is
/// semi-definite in exact arithmetic but rounding can leave it slightly indefinite, so the
/// factorisation is tried with jitter 0, then 1e-12, 1e-10, 1e-8 and 1e-6 times the mean
/// diagonal (GPy's jitchol and BoTorch's psd_safe_cholesky escalate the same way). A zero
/// matrix gives L = 0. Throws std::runtime_error naming the largest jitter tried if all
/// fail, and std::invalid_argument for a non-square, non-finite or negative-trace C.
JitteredCholesky robust_cholesky(const Eigen::MatrixXd& C);

/// `count` draws of N(mean, C): an m x count matrix, draw s = mean + L z_s with L from
/// robust_cholesky(C) and z_s the s-th block of m normals from rng (so the first draws do not
/// depend on count). The jitter adds at most 1e-6 of the mean variance as independent noise.
Eigen::MatrixXd sample_joint_gaussian(const Eigen::VectorXd& mean, const Eigen::MatrixXd& C,
                                      int count, core::RngStream& rng);

}  // namespace fbosim::surrogate

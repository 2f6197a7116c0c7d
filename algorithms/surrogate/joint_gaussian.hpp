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

/// The largest |negative eigenvalue| psd_projection_factor accepts, relative to the largest
/// eigenvalue. A posterior covariance computed through the inverse of K + s2 I (condition
/// number kappa up to n signal_var / s2: 5e7 signal_var at n = 50 and the fitted noise's floor
/// 1e-6) carries errors of about kappa 1e-16 of the prior variance, which can be far above the
/// posterior's own scale: the RGPE run that needed the fallback had -5.2e-6 (eigenvalues down
/// to -7.7e-11 against a largest 1.5e-5). 1e-3 leaves room above that and is far below a
/// covariance that is wrong, not rounded (e.g. [[1, 2], [2, 1]]: 1/3).
/// Clipping changes the covariance by at most this share of its largest eigenvalue.
inline constexpr double kPsdProjectionTolerance = 1e-3;

/// A lower-triangular L with L L^T = P, the positive semi-definite projection of C: with
/// (C + C^T) / 2 = V diag(lambda) V^T, P = V diag(max(lambda, 0)) V^T, the nearest
/// semi-definite matrix in the Frobenius norm (Higham 1988). L is the transposed R of a QR
/// decomposition of (V diag(sqrt(max(lambda, 0))))^T, its diagonal made >= 0. Throws
/// std::runtime_error if the smallest eigenvalue is below -kPsdProjectionTolerance times the
/// largest (or C is non-zero with no positive eigenvalue): an indefinite C is an error, not
/// rounding. std::invalid_argument for a non-square or non-finite C.
Eigen::MatrixXd psd_projection_factor(const Eigen::MatrixXd& C);

/// `count` draws of N(mean, C): an m x count matrix, draw s = mean + L z_s with L from
/// robust_cholesky(C) and z_s the s-th block of m normals from rng (so the first draws do not
/// depend on count). The jitter adds at most 1e-6 of the mean variance as independent noise.
/// Where no jitter factorises C, L = psd_projection_factor(C) instead: a posterior at inputs
/// DIRECT queries close together, with the noise variance near its floor, is nearly singular
/// and its rounding errors, relative to the prior variance, can exceed 1e-6 of its own small
/// mean variance (RGPE's leave-one-out draws in configs/fts/landmine_direct.yaml: eigenvalues
/// down to -7.7e-11 where the mean variance is 4.4e-6). The fallback runs only where
/// robust_cholesky throws, so every draw it factorises is unchanged, bit for bit.
Eigen::MatrixXd sample_joint_gaussian(const Eigen::VectorXd& mean, const Eigen::MatrixXd& C,
                                      int count, core::RngStream& rng);

}  // namespace fbosim::surrogate

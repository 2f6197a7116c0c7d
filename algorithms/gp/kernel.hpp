#pragma once
// Stationary kernels beside the isotropic SE one (se_kernel.hpp, whose fast path the default
// experiment keeps): SE, Matern-3/2 and Matern-5/2 with automatic relevance determination (one
// length scale per input dimension, or one for all). With the scaled distance
// r^2 = sum_k (x_k - x'_k)^2 / l_k^2 (Rasmussen & Williams 2006, eq. 5.2 with M = diag(l)^-2):
//   SE          k = s^2 exp(-r^2 / 2)                                (R&W eq. 4.9)
//   Matern-3/2  k = s^2 (1 + sqrt(3) r) exp(-sqrt(3) r)              (R&W eq. 4.17)
//   Matern-5/2  k = s^2 (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r)  (R&W eq. 4.17)
// s^2 the signal variance.
#include <string>

#include <Eigen/Core>

#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::gp {

enum class KernelFamily { se, matern32, matern52 };
inline constexpr schema::EnumNames<KernelFamily> kKernelFamilyNames{
    {KernelFamily::se, "se"},
    {KernelFamily::matern32, "matern32"},
    {KernelFamily::matern52, "matern52"}};
std::string to_string(KernelFamily f);

/// The Matern smoothness nu of a family (1.5, 2.5); SE (nu -> infinity) has none: 0.
double matern_nu(KernelFamily f);

/// The kernel as a config chooses it (gp.kernel, gp.ard).
struct KernelChoice {
  KernelFamily family = KernelFamily::se;  ///< gp.kernel
  bool ard = false;                        ///< gp.ard: one length scale per input dimension
  /// The default (isotropic SE): the fast SE code paths, bit for bit as before these keys.
  bool is_default() const { return family == KernelFamily::se && !ard; }
};

/// gp.kernel, gp.ard.
const schema::Group<KernelChoice>& kernel_choice_keys();

/// Hyperparameters of a kernel of the families above with Gaussian observation noise.
struct KernelHyper {
  KernelFamily family = KernelFamily::se;
  Eigen::VectorXd lengthscales = Eigen::VectorXd::Ones(1);  ///< 1 (isotropic) or d entries, > 0
  double signal_var = 1.0;                                  ///< s^2 (variance, not std)
  double noise_var = 1e-6;                                  ///< sigma^2 (variance, not std)
};

/// k / s^2 as a function of the squared scaled distance r^2 >= 0.
double kernel_profile(KernelFamily f, double r2);

/// d k / d log l_k = dk_factor(r^2) (x_k - x'_k)^2 / l_k^2 with dk_factor(r^2) returned here
/// for s^2 = 1 (chain rule on r; no division by r, so finite at r = 0):
///   SE: exp(-r^2/2); Matern-3/2: 3 exp(-sqrt(3) r); Matern-5/2: 5/3 (1 + sqrt(5) r) exp(-sqrt(5)
///   r).
double kernel_lengthscale_factor(KernelFamily f, double r2);

/// The points divided by their length scales: X n x d -> n x d with column k over l_k
/// (lengthscales of size 1 or d; throws std::invalid_argument otherwise).
Eigen::MatrixXd scale_inputs(const Eigen::MatrixXd& X, const Eigen::VectorXd& lengthscales);

/// K(A, B) without noise: A n x d, B m x d (one point per row) -> n x m.
Eigen::MatrixXd kernel_matrix(const KernelHyper& h, const Eigen::MatrixXd& A,
                              const Eigen::MatrixXd& B);

}  // namespace fbosim::gp

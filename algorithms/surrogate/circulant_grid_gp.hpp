#pragma once
// Exact samples of a GP posterior (a stationary kernel: SE, Matern-3/2 or Matern-5/2, Gaussian
// noise) on an equally spaced 1-D grid x_j = x0 + j h, j < G, from observations at grid points, in
// O(L log L + n^2) per sample (G <= L <= 2G) instead of the O(G^3) of a dense joint sample:
// - prior: the G x G covariance is Toeplitz; embedded in a circulant matrix C of size L whose
//   first row is k(min(i, L - i) h) (L >= 2(G - 1), or less where the kernel has decayed below
//   1e-17 of its variance: see the cpp), it is diagonalised by the DFT, C = F^-1 diag(mu) F,
//   so f = F^-1 (sqrt(mu) . F z), z ~ N(0, I_L), has covariance C and its first G entries the
//   prior's (Dietrich & Newsam 1997, "Fast and exact simulation of stationary Gaussian processes
//   through circulant embedding of the covariance matrix"). F z is drawn directly as a Hermitian
//   spectrum (L normals).
// - posterior: Matheron's rule (Wilson et al. 2020, "Efficiently sampling functions from
//   Gaussian process posteriors", eq. 3): f_post = f + K(., X) (K_XX + s2 I)^-1 (y - f_X - e),
//   e ~ N(0, s2 I). The factor of K_XX + s2 I grows by one row per observation (O(n^2)), and
//   K(., X) v is a circular convolution, two more transforms.
// The embedding is valid when every mu_k >= 0: L is doubled (up to 2^20) until the most
// negative eigenvalue is within 1e-10 of the largest (the rounding of the transform), and those
// rounding-level negatives are set to 0 (each covariance entry moves by at most 1e-10 mu_max,
// mu_max <= L signal_var); a kernel that no such L embeds throws std::runtime_error.
// Nothing here needs the SE kernel's form: the embedding holds for any stationary kernel on a
// regular grid (Dietrich & Newsam 1997, sec. 2), and in 1-D a kernel with one length scale per
// dimension (ARD) has one. The Matern kernels' spectra decay polynomially (a Student-t
// density), so their embeddings may need a larger L before every mu_k >= 0; the doubling finds
// it.
#include <complex>
#include <vector>

#include <Eigen/Core>

#include "algorithms/gp/kernel.hpp"
#include "algorithms/gp/se_kernel.hpp"
#include "core/rng.hpp"

namespace fbosim::surrogate {

class CirculantGridGp {
 public:
  /// grid_points G >= 2, spacing h > 0; hyper: lengthscale > 0, signal_var > 0, noise_var > 0;
  /// family: the kernel's (SE: exp(-r^2/2), the default's code and bits; Matern:
  /// gp::kernel_profile).
  CirculantGridGp(Eigen::Index grid_points, double h, gp::SeHyper hyper,
                  gp::KernelFamily family = gp::KernelFamily::se);

  /// Conditions on y observed at grid point `index` (0 <= index < G). O(n^2).
  void add(Eigen::Index index, double y);
  /// One joint sample of the posterior at the G grid points: L + n normals from rng.
  Eigen::VectorXd sample(core::RngStream& rng) const;

  const gp::SeHyper& hyper() const { return hyper_; }
  gp::KernelFamily family() const { return family_; }
  Eigen::Index observations() const { return static_cast<Eigen::Index>(index_.size()); }
  Eigen::Index embedding_size() const { return L_; }
  /// The circulant's eigenvalues mu_0..mu_{L/2} (after the rounding-level negatives are zeroed).
  const std::vector<double>& eigenvalues() const { return mu_; }

 private:
  double kernel_at(Eigen::Index distance) const;  // k(distance * h), distance < G
  void forward_solve(Eigen::VectorXd& b) const;   // b <- L^-1 b, L the factor of K_XX + s2 I
  void backward_solve(Eigen::VectorXd& b) const;  // b <- L^-T b

  Eigen::Index G_;
  double h_;
  gp::SeHyper hyper_;
  gp::KernelFamily family_;
  Eigen::Index L_ = 0;
  std::vector<double> mu_;       // eigenvalues, L/2 + 1 (the rest mirror them)
  std::vector<double> root_mu_;  // sqrt(mu)
  Eigen::VectorXd table_;        // k(d h), d < G
  std::vector<Eigen::Index> index_;
  std::vector<double> y_;
  std::vector<double> chol_;  // lower factor of K_XX + s2 I, packed by rows
};

}  // namespace fbosim::surrogate

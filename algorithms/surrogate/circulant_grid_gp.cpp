#include "algorithms/surrogate/circulant_grid_gp.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/surrogate/real_fft.hpp"

namespace fbosim::surrogate {

namespace {
constexpr Eigen::Index kMaxEmbedding = Eigen::Index{1} << 20;
constexpr double kNegativeTolerance = 1e-10;  // relative to the largest eigenvalue

void check(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("CirculantGridGp: " + what);
}

// Smallest even n' >= n whose prime factors are 2, 3 and 5 (sizes FFTW transforms fastest).
Eigen::Index smooth_size_at_least(Eigen::Index n) {
  for (Eigen::Index L = std::max<Eigen::Index>(2, n + n % 2);; L += 2) {
    Eigen::Index m = L;
    for (const Eigen::Index p : {2, 3, 5})
      while (m % p == 0) m /= p;
    if (m == 1) return L;
  }
}

// r beyond which k / signal_var < 1e-17 (each profile decreases in r): exp(-r^2 / 2) for
// r > 8.86; (1 + sqrt(3) r) exp(-sqrt(3) r) for r > 24.79; (1 + sqrt(5) r + 5 r^2 / 3)
// exp(-sqrt(5) r) for r > 20.47 (each root 8.848, 24.784, 20.463 rounded up).
double negligible_radius(gp::KernelFamily family) {
  switch (family) {
    case gp::KernelFamily::matern32:
      return 24.79;
    case gp::KernelFamily::matern52:
      return 20.47;
    case gp::KernelFamily::se:
      break;
  }
  return 8.86;
}

// Grid steps beyond which k(d h) < 1e-17 signal_var.
Eigen::Index kernel_reach(gp::KernelFamily family, double lengthscale, double h) {
  const double steps = std::max(1.0, std::ceil(negligible_radius(family) * lengthscale / h));
  return steps > 1e15 ? Eigen::Index{1} << 50 : static_cast<Eigen::Index>(steps);
}
}  // namespace

CirculantGridGp::CirculantGridGp(Eigen::Index grid_points, double h, gp::SeHyper hyper,
                                 gp::KernelFamily family)
    : G_(grid_points), h_(h), hyper_(hyper), family_(family) {
  check(G_ >= 2, "needs at least 2 grid points, got " + std::to_string(G_));
  check(h_ > 0 && std::isfinite(h_), "grid spacing must be finite and > 0");
  check(hyper_.lengthscale > 0 && std::isfinite(hyper_.lengthscale), "lengthscale must be > 0");
  check(hyper_.signal_var > 0 && std::isfinite(hyper_.signal_var), "signal_var must be > 0");
  check(hyper_.noise_var > 0 && std::isfinite(hyper_.noise_var), "noise_var must be > 0");
  table_.resize(G_);
  for (Eigen::Index d = 0; d < G_; ++d) table_[d] = kernel_at(d);
  // Dietrich & Newsam's minimal embedding is L = 2(G - 1). When the kernel is below 1e-17 of its
  // variance beyond w < G - 1 grid steps, L >= max(G - 1 + w, 2 w) already reproduces every
  // entry of the grid's covariance to 1e-17 signal_var (an entry C_ij with |i - j| > L / 2 is
  // k((L - |i - j|) h), both arguments >= w), and is cheaper. Doubling L moves the wrap-around
  // further from the grid until mu >= 0.
  const Eigen::Index reach = kernel_reach(family_, hyper_.lengthscale, h_);
  const Eigen::Index minimal = reach < G_ - 1 ? std::max(G_ - 1 + reach, 2 * reach) : 2 * (G_ - 1);
  for (L_ = smooth_size_at_least(minimal); L_ <= kMaxEmbedding; L_ *= 2) {
    std::vector<double> row(static_cast<std::size_t>(L_));
    for (Eigen::Index i = 0; i < L_; ++i) row[i] = kernel_at(std::min(i, L_ - i));
    std::vector<std::complex<double>> spectrum;
    RealFft::of_size(L_).forward(row, spectrum);  // real up to rounding: row is symmetric
    mu_.resize(spectrum.size());
    for (std::size_t k = 0; k < spectrum.size(); ++k) mu_[k] = spectrum[k].real();
    const double top = *std::max_element(mu_.begin(), mu_.end());
    const double bottom = *std::min_element(mu_.begin(), mu_.end());
    if (bottom >= -kNegativeTolerance * top) break;
  }
  if (L_ > kMaxEmbedding)
    throw std::runtime_error(
        "CirculantGridGp: no circulant embedding of up to 2^20 points is positive semi-definite "
        "for lengthscale " +
        std::to_string(hyper_.lengthscale) + " on " + std::to_string(G_) +
        " grid points (the kernel does not decay within the embedding); use the RFF model");
  root_mu_.resize(mu_.size());
  for (std::size_t k = 0; k < mu_.size(); ++k) {
    mu_[k] = std::max(mu_[k], 0.0);
    root_mu_[k] = std::sqrt(mu_[k]);
  }
}

double CirculantGridGp::kernel_at(Eigen::Index distance) const {
  const double r = static_cast<double>(distance) * h_ / hyper_.lengthscale;
  if (family_ != gp::KernelFamily::se)
    return hyper_.signal_var * gp::kernel_profile(family_, r * r);
  return hyper_.signal_var * std::exp(-0.5 * r * r);
}

void CirculantGridGp::add(Eigen::Index index, double y) {
  check(index >= 0 && index < G_, "grid index " + std::to_string(index) + " out of range");
  check(std::isfinite(y), "observation must be finite");
  const auto n = static_cast<Eigen::Index>(index_.size());
  // New row of the factor: L a = k (k the kernel between the new point and the others),
  // d = sqrt(k(x, x) + s2 - a.a).
  Eigen::VectorXd a(n);
  for (Eigen::Index i = 0; i < n; ++i) a[i] = table_[std::abs(index - index_[i])];
  forward_solve(a);
  const double d2 = hyper_.signal_var + hyper_.noise_var - a.squaredNorm();
  if (!(d2 > 0))
    throw std::runtime_error("CirculantGridGp: K_XX + noise_var I is numerically singular at " +
                             std::to_string(n + 1) + " observations");
  chol_.insert(chol_.end(), a.data(), a.data() + n);
  chol_.push_back(std::sqrt(d2));
  index_.push_back(index);
  y_.push_back(y);
}

// Row i of the factor, L_i0 .. L_ii, is chol_[i (i + 1) / 2 ...]: every product below runs over
// contiguous memory.
void CirculantGridGp::forward_solve(Eigen::VectorXd& b) const {
  for (Eigen::Index i = 0; i < b.size(); ++i) {
    const double* row = chol_.data() + i * (i + 1) / 2;
    const double dot = Eigen::Map<const Eigen::VectorXd>(row, i).dot(b.head(i));
    b[i] = (b[i] - dot) / row[i];
  }
}

void CirculantGridGp::backward_solve(Eigen::VectorXd& b) const {
  for (Eigen::Index i = b.size() - 1; i >= 0; --i) {
    const double* row = chol_.data() + i * (i + 1) / 2;
    b[i] /= row[i];
    b.head(i) -= b[i] * Eigen::Map<const Eigen::VectorXd>(row, i);
  }
}

Eigen::VectorXd CirculantGridGp::sample(core::RngStream& rng) const {
  const RealFft& fft = RealFft::of_size(L_);
  const Eigen::Index half = L_ / 2;
  // F z for z ~ N(0, I_L): X_0 and X_{L/2} real with variance L, the other X_k complex with
  // independent parts of variance L/2 each (and X_{L-k} = conj(X_k)).
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(half + 1));
  const double full = std::sqrt(static_cast<double>(L_));
  const double part = std::sqrt(0.5 * static_cast<double>(L_));
  spectrum[0] = root_mu_[0] * full * rng.normal();
  for (Eigen::Index k = 1; k < half; ++k) {
    const double re = rng.normal();
    const double im = rng.normal();
    spectrum[k] = root_mu_[k] * part * std::complex<double>(re, im);
  }
  spectrum[half] = root_mu_[half] * full * rng.normal();
  std::vector<double> prior;
  fft.inverse(spectrum, prior);  // L f: the inverse is unnormalised
  const double inv_L = 1.0 / static_cast<double>(L_);
  Eigen::VectorXd f(G_);
  for (Eigen::Index j = 0; j < G_; ++j) f[j] = prior[j] * inv_L;
  const auto n = static_cast<Eigen::Index>(index_.size());
  if (n == 0) return f;
  // Matheron's rule: v = (K_XX + s2 I)^-1 (y - f_X - e), then f += K(., X) v = first G entries
  // of C w, w the L-vector with v_i at index_i (a circular convolution with the first row).
  const double noise_sd = std::sqrt(hyper_.noise_var);
  Eigen::VectorXd r(n);
  for (Eigen::Index i = 0; i < n; ++i) r[i] = y_[i] - f[index_[i]] - noise_sd * rng.normal();
  Eigen::VectorXd v = r;  // (K_XX + s2 I)^-1 r
  forward_solve(v);
  backward_solve(v);
  std::vector<double> w(static_cast<std::size_t>(L_), 0.0);
  for (Eigen::Index i = 0; i < n; ++i) w[index_[i]] += v[i];
  fft.forward(w, spectrum);
  for (Eigen::Index k = 0; k <= half; ++k) spectrum[k] *= mu_[k];
  std::vector<double> update;
  fft.inverse(spectrum, update);
  for (Eigen::Index j = 0; j < G_; ++j) f[j] += update[j] * inv_L;
  return f;
}

}  // namespace fbosim::surrogate

#include "algorithms/privacy/pld_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <future>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <unsupported/Eigen/FFT>

#include "algorithms/privacy/gaussian_tail.hpp"

namespace fbosim::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTail = 1e-15;  // mass cut at each end, always pessimistically

// P(L <= l) and P(L > l) of one relation, from normal CDFs (L is monotone in x).
struct LossCdf {
  std::function<double(double)> cdf, sf;
  double natural_lo = -kInf, natural_hi = kInf;  // support of L
};

// log((e^l - (1 - q)) / q) for e^l > 1 - q, without cancellation near the boundary.
double log_excess(double l, double q) {
  return l + std::log1p(-(1 - q) * std::exp(-l)) - std::log(q);
}

LossCdf loss_cdf(double q, double z, bool add) {
  LossCdf c;
  const double z2 = z * z;
  if (!add) {  // remove: L = log(1 - q + q e^{(2x-1)/(2 z^2)}), increasing in x, x ~ mixture
    if (q < 1) c.natural_lo = std::log1p(-q);
    const auto x_of = [=](double l) { return z2 * log_excess(l, q) + 0.5; };
    c.cdf = [=](double l) {
      if (l <= c.natural_lo) return 0.0;
      const double x = x_of(l);
      return (1 - q) * normal_cdf(x / z) + q * normal_cdf((x - 1) / z);
    };
    c.sf = [=](double l) {
      if (l <= c.natural_lo) return 1.0;
      const double x = x_of(l);
      return (1 - q) * normal_sf(x / z) + q * normal_sf((x - 1) / z);
    };
  } else {  // add: L = -log(1 - q + q e^{(2x-1)/(2 z^2)}), decreasing in x, x ~ N(0, z^2)
    if (q < 1) c.natural_hi = -std::log1p(-q);
    const auto x_of = [=](double l) { return z2 * log_excess(-l, q) + 0.5; };
    c.cdf = [=](double l) { return l >= c.natural_hi ? 1.0 : normal_sf(x_of(l) / z); };
    c.sf = [=](double l) { return l >= c.natural_hi ? 0.0 : normal_cdf(x_of(l) / z); };
  }
  return c;
}

void check(double q, double z) {
  if (!(q > 0 && q <= 1))
    throw std::invalid_argument(fmt::format("sampling_rate q must be in (0, 1], got {}", q));
  if (!(z > 0 && std::isfinite(z)))
    throw std::invalid_argument(fmt::format("noise_multiplier z must be > 0, got {}", z));
}

// Cuts tail mass below kTail: the low end moves up to the first kept point, the high end to
// +infinity (both pessimistic).
void truncate(PldAccountant::Pld& d) {
  std::size_t lo = 0, hi = d.p.size();
  double low_mass = 0, high_mass = 0;
  while (lo + 1 < hi && low_mass + d.p[lo] < kTail) low_mass += d.p[lo++];
  while (hi - 1 > lo && high_mass + d.p[hi - 1] < kTail) high_mass += d.p[--hi];
  std::vector<double> kept(d.p.begin() + static_cast<std::ptrdiff_t>(lo),
                           d.p.begin() + static_cast<std::ptrdiff_t>(hi));
  kept.front() += low_mass;
  d.p = std::move(kept);
  d.offset += static_cast<std::int64_t>(lo);
  d.inf_mass += high_mass;
}

// The smallest 2^a 3^b 5^c >= n: kissfft's fast radices, padding far less than a power of two.
std::size_t fft_size(std::size_t n) {
  std::size_t best = 1;
  while (best < n) best <<= 1;
  for (std::size_t p5 = 1; p5 < best; p5 *= 5)
    for (std::size_t p35 = p5; p35 < best; p35 *= 3) {
      std::size_t m = p35;
      while (m < n) m <<= 1;
      best = std::min(best, m);
    }
  return best;
}

}  // namespace

PldAccountant::PldAccountant(double grid_width) : grid_width_(grid_width) {
  if (!(grid_width >= 0 && std::isfinite(grid_width)))
    throw std::invalid_argument(fmt::format("grid width must be >= 0, got {}", grid_width));
}

double PldAccountant::grid_for(int steps) { return 1e-3 * std::max(1.0, std::sqrt(steps / 40.0)); }

double PldAccountant::grid_width() const {
  return grid_width_ > 0 ? grid_width_ : grid_for(steps_);
}

PldAccountant::Pld PldAccountant::single(double q, double z, double h, bool add) {
  check(q, z);
  const LossCdf c = loss_cdf(q, z, add);
  // Grid ends: the natural support where it is finite, else where the tail mass is < kTail.
  double lo = c.natural_lo, hi = c.natural_hi;
  if (!std::isfinite(lo)) {
    lo = -1;
    while (c.cdf(lo) > kTail) lo *= 2;
  }
  if (!std::isfinite(hi)) {
    hi = 1;
    while (c.sf(hi) > kTail) hi *= 2;
  }
  // Bucket k holds the losses in ((k-1)h, kh]; the first bucket also everything below.
  const auto k_lo = static_cast<std::int64_t>(std::floor(lo / h)) + 1;
  const auto k_hi = static_cast<std::int64_t>(std::ceil(hi / h));
  Pld d;
  d.offset = k_lo;
  d.p.assign(static_cast<std::size_t>(k_hi - k_lo + 1), 0.0);
  double prev_cdf = 0, prev_sf = 1;
  for (std::int64_t k = k_lo; k <= k_hi; ++k) {
    const double l = static_cast<double>(k) * h;
    const double cdf = c.cdf(l), sf = c.sf(l);
    // Differences of whichever tail is small keep their relative accuracy.
    d.p[static_cast<std::size_t>(k - k_lo)] =
        std::max(0.0, cdf < 0.5 ? cdf - prev_cdf : prev_sf - sf);
    prev_cdf = cdf;
    prev_sf = sf;
  }
  d.inf_mass = prev_sf;  // beyond the last grid point (0 at a finite natural end)
  return d;
}

PldAccountant::Pld PldAccountant::convolve(const Pld& a, const Pld& b) {
  const std::size_t n = a.p.size() + b.p.size() - 1;
  const std::size_t nfft = fft_size(n);
  // One FFT object per thread: it caches the twiddle factors of every size it has seen.
  thread_local Eigen::FFT<double> fft = [] {
    Eigen::FFT<double> f;
    f.SetFlag(Eigen::FFT<double>::HalfSpectrum);  // real input: half the work
    return f;
  }();
  const auto spectrum = [&](const std::vector<double>& p) {
    std::vector<double> padded(p);
    padded.resize(nfft, 0.0);
    std::vector<std::complex<double>> f;
    fft.fwd(f, padded);
    return f;
  };
  std::vector<std::complex<double>> fa = spectrum(a.p);
  if (&a == &b) {  // squaring (repeated self-composition): one forward transform
    for (auto& v : fa) v *= v;
  } else {
    const std::vector<std::complex<double>> fb = spectrum(b.p);
    for (std::size_t i = 0; i < fa.size(); ++i) fa[i] *= fb[i];
  }
  std::vector<double> out;
  fft.inv(out, fa, nfft);
  out.resize(n);
  for (double& v : out) v = std::max(v, 0.0);  // FFT round-off can leave tiny negatives
  Pld c;
  c.offset = a.offset + b.offset;
  c.p = std::move(out);
  c.inf_mass = 1 - (1 - a.inf_mass) * (1 - b.inf_mass);
  truncate(c);
  return c;
}

PldAccountant::Pld PldAccountant::self_compose(const Pld& a, int count) {
  Pld result;  // the identity: all mass at loss 0
  Pld base = a;
  bool first = true;
  for (int t = count; t > 0; t >>= 1) {
    if (t & 1) {
      result = first ? base : convolve(result, base);
      first = false;
    }
    if (t > 1) base = convolve(base, base);
  }
  return result;
}

double PldAccountant::epsilon_of(const Pld& d, double h, double delta) {
  if (d.inf_mass >= delta) return kInf;
  // delta(eps) = m_inf + S1 - e^eps S2 on [l_{i-1}, l_i], with S1, S2 the sums of p and
  // p e^{-l} over the losses above eps; walk down from the top until delta(left end) > delta.
  long double s1 = 0, s2 = 0;
  for (std::size_t i = d.p.size(); i-- > 0;) {
    const double l = static_cast<double>(d.offset + static_cast<std::int64_t>(i)) * h;
    if (l <= 0) break;
    s1 += d.p[i];
    s2 += d.p[i] * std::exp(-static_cast<long double>(l));
    const double left = std::max(0.0, l - h);
    const long double at_left = d.inf_mass + s1 - std::exp(static_cast<long double>(left)) * s2;
    if (at_left > delta) {
      if (s2 <= 0) return l;
      return static_cast<double>(std::log((d.inf_mass + s1 - delta) / s2));
    }
  }
  return 0.0;
}

void PldAccountant::compose(const DpEvent& e, int count) {
  if (e.sampling != Sampling::poisson)
    throw std::invalid_argument("the pld accountant covers Poisson sampling only, got " +
                                to_string(e.sampling) + " sampling");
  check(e.sampling_rate, e.noise_multiplier);
  if (count < 0) throw std::invalid_argument(fmt::format("count must be >= 0, got {}", count));
  if (count == 0) return;
  for (Group& g : groups_)
    if (g.q == e.sampling_rate && g.z == e.noise_multiplier) {
      g.count += count;
      steps_ += count;
      return;
    }
  groups_.push_back({e.sampling_rate, e.noise_multiplier, count});
  steps_ += count;
}

double PldAccountant::pessimistic_epsilon(double delta, double h) const {
  const auto relation = [&](bool add) {
    Pld total;
    bool first = true;
    for (const Group& g : groups_) {
      Pld part = self_compose(single(g.q, g.z, h, add), g.count);
      total = first ? std::move(part) : convolve(total, part);
      first = false;
    }
    return epsilon_of(total, h, delta);
  };
  // The two neighbouring relations are independent computations: one on another thread.
  // Deterministic (each is the same sequential computation whichever thread runs it).
  auto add = std::async(std::launch::async, relation, true);
  const double remove = relation(false);
  return std::max(remove, add.get());
}

EpsilonBounds PldAccountant::epsilon_bounds(double delta) const {
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  if (steps_ == 0) return {0.0, 0.0};
  const double h = grid_width();
  const double upper = pessimistic_epsilon(delta, h);
  return {std::max(0.0, upper - steps_ * h), upper};
}

EpsilonResult PldAccountant::epsilon(double delta) const {
  return {epsilon_bounds(delta).upper, 0.0};
}

}  // namespace fbosim::privacy

#include "algorithms/privacy/pld_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <unsupported/Eigen/FFT>

#include "core/cancellation.hpp"

namespace fbosim::privacy {

namespace {

constexpr std::size_t kPlanCacheMax = std::size_t{1} << 17;

// A power of two up to kPlanCacheMax (few distinct sizes: their cached plans are reused across
// calls), beyond it the smallest 2^a 3^b 5^c >= n (kissfft's radices; far less padding).
std::size_t fft_size(std::size_t n) {
  std::size_t best = 1;
  while (best < n) best <<= 1;
  if (best <= kPlanCacheMax) return best;
  for (std::size_t p5 = 1; p5 < best; p5 *= 5)
    for (std::size_t p35 = p5; p35 < best; p35 *= 3) {
      std::size_t m = p35;
      while (m < n) m <<= 1;
      best = std::min(best, m);
    }
  return best;
}

}  // namespace

void truncate(PldPmf& d, Bound bound, double tail) {
  std::size_t lo = 0, hi = d.p.size();
  double low_mass = 0, high_mass = 0;
  while (lo + 1 < hi && low_mass + d.p[lo] < tail) low_mass += d.p[lo++];
  while (hi - 1 > lo && high_mass + d.p[hi - 1] < tail) high_mass += d.p[--hi];
  if (lo == 0 && hi == d.p.size()) return;
  std::vector<double> kept(d.p.begin() + static_cast<std::ptrdiff_t>(lo),
                           d.p.begin() + static_cast<std::ptrdiff_t>(hi));
  if (bound == Bound::upper) {
    kept.front() += low_mass;  // rounded up onto the first kept loss
    d.inf_mass += high_mass;   // and up to +infinity
  }
  d.p = std::move(kept);
  d.offset += static_cast<std::int64_t>(lo);
}

PldPmf convolve(const PldPmf& a, const PldPmf& b, Bound bound) {
  const std::size_t n = a.p.size() + b.p.size() - 1;
  if (n > kPldMaxPoints)
    throw std::length_error(fmt::format(
        "pld: the composed privacy-loss distribution needs {} grid points, more than the limit "
        "{}; use the rdp accountant for this horizon",
        n, kPldMaxPoints));
  PldPmf c;
  c.offset = a.offset + b.offset;
  // 1 - (1 - a)(1 - b): a loss is infinite when either part is.
  c.inf_mass = a.inf_mass + b.inf_mass - a.inf_mass * b.inf_mass;
  if (a.p.size() == 1 || b.p.size() == 1) {  // a point mass: a scaled shift
    const PldPmf& point = a.p.size() == 1 ? a : b;
    const PldPmf& other = a.p.size() == 1 ? b : a;
    c.p = other.p;
    for (double& v : c.p) v *= point.p[0];
  } else {
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
    fft.inv(c.p, fa, nfft);
    // Large plans are rarely reused (squaring grows the size): drop their twiddles (memory).
    if (nfft > kPlanCacheMax) fft.impl().clear();
    c.p.resize(n);
    // FFT round-off (~1e-17 absolute) leaves tiny negatives; they are far below the tail cut.
    for (double& v : c.p) v = std::max(v, 0.0);
  }
  truncate(c, bound);
  return c;
}

PldPmf self_compose(const PldPmf& a, long long count, Bound bound) {
  if (count < 0) throw std::invalid_argument(fmt::format("count must be >= 0, got {}", count));
  PldPmf result;  // the identity: all mass at loss 0
  PldPmf base = a;
  bool first = true;
  for (long long t = count; t > 0; t >>= 1) {
    core::throw_if_cancelled();  // each step is one or two FFT convolutions
    if (t & 1) {
      result = first ? base : convolve(result, base, bound);
      first = false;
    }
    if (t > 1) base = convolve(base, base, bound);
  }
  return result;
}

double delta_for_epsilon(const PldPmf& d, double h, double eps) {
  long double s = d.inf_mass;
  for (std::size_t i = 0; i < d.p.size(); ++i) {
    const double l = static_cast<double>(d.offset + static_cast<std::int64_t>(i)) * h;
    if (l > eps) s += d.p[i] * -std::expm1(static_cast<long double>(eps - l));
  }
  return static_cast<double>(s);
}

double epsilon_for_delta(const PldPmf& d, double h, double delta) {
  if (d.inf_mass >= delta) return std::numeric_limits<double>::infinity();
  // On [l_{i-1}, l_i]: delta(eps) = m_inf + S1 - e^{eps - l_i} S2 with S1 = sum_{j >= i} p_j and
  // S2 = sum_{j >= i} p_j e^{l_i - l_j} (scaled at l_i: no overflow at any loss). Walk down from
  // the top until delta at the left end exceeds the target; invert the exponential there.
  long double s1 = 0, s2 = 0;
  const long double shrink = std::exp(static_cast<long double>(-h));
  for (std::size_t i = d.p.size(); i-- > 0;) {
    const double l = static_cast<double>(d.offset + static_cast<std::int64_t>(i)) * h;
    if (l <= 0) return 0.0;  // delta(0) <= delta(l) <= target
    s1 += d.p[i];
    s2 = s2 * shrink + d.p[i];
    const long double at_left = d.inf_mass + s1 - shrink * s2;
    // Below the lowest loss the same expression holds, so the last point solves there too.
    if (at_left > delta || i == 0) {
      if (!(d.inf_mass + s1 > delta)) return 0.0;  // even delta(-infinity) is within target
      const double eps = l + static_cast<double>(std::log((d.inf_mass + s1 - delta) / s2));
      return std::max(0.0, eps);
    }
  }
  return 0.0;
}

}  // namespace fbosim::privacy

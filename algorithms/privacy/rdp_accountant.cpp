#include "algorithms/privacy/rdp_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/privacy/gaussian_tail.hpp"
#include "algorithms/privacy/log_space.hpp"
#include "algorithms/privacy/repetition.hpp"

namespace fbosim::privacy {

namespace {

// log(e^a - e^b) for a >= b; -inf when the difference vanishes (a cancellation to zero).
double log_sub(double a, double b) {
  if (b == -kInf) return a;
  if (b >= a) return -kInf;
  return a + std::log(-std::expm1(b - a));
}

double log_binom(double n, double k) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

bool is_integer(double a) { return std::abs(a - std::round(a)) < 1e-12; }

// Integer alpha: A = sum_k C(a,k) q^k (1-q)^(a-k) exp((k^2 - k) / (2 z^2)) (MTZ 2019, Sec. 3.3).
double log_a_int(double q, double z, int alpha) {
  double log_a = -kInf;
  for (int k = 0; k <= alpha; ++k) {
    const double kk = k;
    log_a = log_add(log_a, log_binom(alpha, kk) + kk * std::log(q) + (alpha - kk) * std::log1p(-q) +
                               (kk * kk - kk) / (2 * z * z));
  }
  return log_a;
}

// Fractional alpha: A = A0 + A1, two series over i >= 0 with generalised binomial coefficients
// C(a,i) (alternating in sign once i > a) and Gaussian tail masses split at
// z0 = z^2 log(1/q - 1) + 1/2 (MTZ 2019, Sec. 3.3). Summed until the terms fall below e^-30.
double log_a_frac(double q, double z, double alpha) {
  double log_a0 = -kInf, log_a1 = -kInf;
  const double z0 = z * z * std::log(1 / q - 1) + 0.5;
  const double s2 = 2 * z * z;
  double log_coef = 0;  // log |C(alpha, i)|
  double sign = 1;
  for (int i = 0; i < 100000; ++i) {
    const double ii = i, j = alpha - ii;
    const double log_t0 = log_coef + ii * std::log(q) + j * std::log1p(-q);
    const double log_t1 = log_coef + j * std::log(q) + ii * std::log1p(-q);
    const double log_e0 = std::log(0.5) + log_erfc((ii - z0) / (std::sqrt(2.0) * z));
    const double log_e1 = std::log(0.5) + log_erfc((z0 - j) / (std::sqrt(2.0) * z));
    const double log_s0 = log_t0 + (ii * ii - ii) / s2 + log_e0;
    const double log_s1 = log_t1 + (j * j - j) / s2 + log_e1;
    if (sign > 0) {
      log_a0 = log_add(log_a0, log_s0);
      log_a1 = log_add(log_a1, log_s1);
    } else {
      log_a0 = log_sub(log_a0, log_s0);
      log_a1 = log_sub(log_a1, log_s1);
    }
    if (std::isnan(log_a0) || std::isnan(log_a1)) return log_a0 + log_a1;  // inf - inf: none
    if (std::max(log_s0, log_s1) < -30 && ii > alpha) break;
    // C(alpha, i + 1) = C(alpha, i) (alpha - i) / (i + 1).
    log_coef += std::log(std::abs(alpha - ii)) - std::log(ii + 1);
    if (alpha - ii < 0) sign = -sign;
  }
  return log_add(log_a0, log_a1);
}

}  // namespace

RdpAccountant::RdpAccountant(Conversion conversion)
    : conversion_(conversion), total_(orders().size(), 0.0) {}

const std::vector<double>& RdpAccountant::orders() {
  static const std::vector<double> grid = [] {
    std::vector<double> g{1.01, 1.05};
    for (int k = 11; k <= 109; ++k) g.push_back(k / 10.0);  // 1.1 .. 10.9
    for (int a = 11; a <= 64; ++a) g.push_back(a);
    for (int a : {80, 96, 128, 192, 256, 384, 512}) g.push_back(a);
    return g;
  }();
  return grid;
}

double RdpAccountant::poisson_rdp(double q, double z, double alpha) {
  check_poisson_gaussian(q, z);
  if (!(alpha > 1)) throw std::invalid_argument(fmt::format("order must be > 1, got {}", alpha));
  if (q == 1) return alpha / (2 * z * z);  // the Gaussian mechanism itself
  // 1 / z^2 beyond the doubles: the RDP is too (at least about q^2 e^{1/z^2} inside the log);
  // +infinity at once rather than 10^5 terms of a series that never converges.
  if (!std::isfinite(1 / (z * z))) return kInf;
  const double log_a = is_integer(alpha) ? log_a_int(q, z, static_cast<int>(std::round(alpha)))
                                         : log_a_frac(q, z, alpha);
  // Where z^2 underflows the terms are 0/0: no bound at this order (+infinity, the safe side),
  // never the 0 that std::max(0, NaN) would give.
  if (std::isnan(log_a)) return kInf;
  return std::max(0.0, log_a / (alpha - 1));
}

double RdpAccountant::fixed_rdp(double gamma, double z, int alpha) {
  check_poisson_gaussian(gamma, z);
  if (alpha < 2) throw std::invalid_argument(fmt::format("order must be >= 2, got {}", alpha));
  const auto eps = [z](double j) { return j * 4 / (2 * z * z); };  // sensitivity 2
  const double base = eps(alpha);
  if (gamma == 1) return base;
  // WBK 2019, Thm. 9 with eps(infinity) = infinity (Gaussian): min{2, (e^eps_inf - 1)^j} = 2.
  const double lg = std::log(gamma);
  double sum = 0;  // log of the leading 1
  const double second =
      std::min(std::log(4.0) + std::log(std::expm1(eps(2))), std::log(2.0) + eps(2));
  sum = log_add(sum, 2 * lg + log_binom(alpha, 2) + second);
  for (int j = 3; j <= alpha; ++j)
    sum = log_add(sum, std::log(2.0) + j * lg + log_binom(alpha, j) + (j - 1) * eps(j));
  // Subsampling never increases the Renyi divergence of the base mechanism, so the base RDP
  // is a bound too; the theorem's bound is loose as gamma -> 1. NaN (z^2 underflowed): none.
  if (std::isnan(base) || std::isnan(sum)) return kInf;
  return std::min(base, sum / (alpha - 1));
}

double RdpAccountant::laplace_rdp(double b, double alpha) {
  if (!(b > 0 && std::isfinite(b)))
    throw std::invalid_argument(fmt::format("Laplace scale b must be > 0, got {}", b));
  if (!(alpha > 1)) throw std::invalid_argument(fmt::format("order must be > 1, got {}", alpha));
  // Mironov 2017, Prop. 6 (with lambda = b), in log space: e^{(alpha-1)/b} overflows for small b.
  const double log_sum = log_add(std::log(alpha / (2 * alpha - 1)) + (alpha - 1) / b,
                                 std::log((alpha - 1) / (2 * alpha - 1)) - alpha / b);
  return std::max(0.0, log_sum / (alpha - 1));
}

double RdpAccountant::delta_of(const std::vector<double>& orders, const std::vector<double>& rdp,
                               double epsilon) {
  if (orders.size() != rdp.size())
    throw std::invalid_argument("delta_of: orders and rdp differ in length");
  if (!(epsilon >= 0))
    throw std::invalid_argument(fmt::format("epsilon must be >= 0, got {}", epsilon));
  double log_delta = 0;  // delta <= 1 always
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i], r = rdp[i];
    if (!(a > 1)) throw std::invalid_argument(fmt::format("order must be > 1, got {}", a));
    if (std::isnan(r)) continue;
    if (r <= 0) return 0.0;                       // the two distributions are equal
    double ld = 0.5 * std::log1p(-std::exp(-r));  // KL >= ... : TV <= sqrt(1 - e^-KL)
    if (a > 1.01 && std::isfinite(r))
      ld = std::min(ld, (a - 1) * (r - epsilon + std::log1p(-1 / a)) - std::log(a));
    log_delta = std::min(log_delta, ld);
  }
  return std::min(1.0, std::exp(log_delta));
}

std::vector<double> RdpAccountant::repeat_and_select_rdp(const std::vector<double>& orders,
                                                         const std::vector<double>& rdp,
                                                         double mean, double shape) {
  if (orders.size() != rdp.size())
    throw std::invalid_argument("repeat_and_select_rdp: orders and rdp differ in length");
  const RepetitionDistribution k(mean, shape);
  std::vector<double> out(orders.size(), kInf);
  if (k.poisson()) {
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const double a = orders[i];
      if (!(a > 1) || !std::isfinite(rdp[i])) continue;
      const double delta_hat = delta_of(orders, rdp, std::log1p(1 / (a - 1)));
      out[i] = rdp[i] + mean * delta_hat + std::log(mean) / (a - 1);
    }
    return out;
  }
  // Thm. 2: the constant (1 + eta) min_l [(1 - 1/l) rdp(l) + log(1/gamma) / l] over the grid.
  double c = kInf;
  for (std::size_t j = 0; j < orders.size(); ++j)
    c = std::min(c, (1 - 1 / orders[j]) * rdp[j] - std::log(k.gamma()) / orders[j]);
  c *= 1 + shape;
  const double log_mean = std::log(k.exact_mean());  // >= log(mean): the conservative side
  for (std::size_t i = 0; i < orders.size(); ++i)
    if (orders[i] > 1) out[i] = rdp[i] + log_mean / (orders[i] - 1) + c;
  // Monotonicity in the order: rdp(lambda) <= rdp(lambda') for lambda <= lambda'.
  for (std::size_t i = 0; i < orders.size(); ++i)
    for (std::size_t j = 0; j < orders.size(); ++j)
      if (orders[j] >= orders[i]) out[i] = std::min(out[i], out[j]);
  return out;
}

bool RdpAccountant::base_supported(const DpEvent& e) {
  if (as_poisson_gaussian(e) || e.as<Laplace>()) return true;
  const auto* f = e.as<FixedSampled>();
  return f && f->event->as<Gaussian>();
}

bool RdpAccountant::supports_mechanism(const DpEvent& e) const {
  if (const auto* r = e.as<RepeatAndSelect>()) return base_supported(*r->event);
  return base_supported(e);
}

const std::vector<double>& RdpAccountant::curve(const DpEvent& e) {
  const auto pg = as_poisson_gaussian(e);
  const auto* f = e.as<FixedSampled>();
  const auto* l = e.as<Laplace>();
  const Key key =
      pg  ? Key{0, pg->q, pg->z, 0}
      : f ? Key{1, f->event->as<Gaussian>()->noise_multiplier, f->sample_size, f->population}
          : Key{2, l->scale, 0.0, 0};
  // One cache per thread (no locks; a thread's curves are the same bits as another's), bounded:
  // a run whose noise varies per release (dropouts) would otherwise grow it without end. The
  // reference returned is used before the next call to curve() (compose_mechanism).
  thread_local std::map<Key, std::vector<double>> cache;
  constexpr std::size_t kMaxCurves = 4096;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  if (cache.size() >= kMaxCurves) cache.clear();
  std::vector<double> c(orders().size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double a = orders()[i];
    if (pg) {
      c[i] = poisson_rdp(pg->q, pg->z, a);
    } else if (l) {
      c[i] = laplace_rdp(l->scale, a);
    } else {
      const double gamma = static_cast<double>(f->sample_size) / f->population;
      c[i] = is_integer(a) ? fixed_rdp(gamma, std::get<1>(key), static_cast<int>(a))
                           : kInf;  // Thm. 9 covers integer orders only
    }
  }
  return cache.emplace(key, std::move(c)).first->second;
}

void RdpAccountant::compose_mechanism(const DpEvent& event, long long count) {
  if (const auto* r = event.as<RepeatAndSelect>()) {
    const std::vector<double> c =
        repeat_and_select_rdp(orders(), curve(*r->event), r->mean, r->shape);
    for (std::size_t i = 0; i < c.size(); ++i) total_[i] += static_cast<double>(count) * c[i];
    return;
  }
  const std::vector<double>& c = curve(event);
  for (std::size_t i = 0; i < c.size(); ++i) total_[i] += static_cast<double>(count) * c[i];
}

EpsilonResult RdpAccountant::private_epsilon(double delta) const {
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  if (steps() == 0) return {0.0, 0.0};
  EpsilonResult best{kInf, 0.0};
  for (std::size_t i = 0; i < total_.size(); ++i) {
    const double a = orders()[i], r = total_[i];
    if (!std::isfinite(r)) continue;
    double eps;
    if (conversion_ == Conversion::classic) {
      eps = r + std::log(1 / delta) / (a - 1);
    } else if (delta * delta + std::expm1(-r) > 0) {
      eps = 0;  // delta >= sqrt(1 - e^-KL) and KL <= rdp: (0, delta)-DP (Pinsker-type bound)
    } else {
      eps = r + std::log1p(-1 / a) - (std::log(delta) + std::log(a)) / (a - 1);
    }
    eps = std::max(eps, 0.0);
    if (eps < best.epsilon) best = {eps, a};
  }
  return best;
}

AccountantEntry rdp_accountant_entry() {
  return {"rdp",
          "Renyi DP at fractional orders with the improved conversion; also fixed-size sampling",
          [] { return std::make_unique<RdpAccountant>(); }, true};
}

}  // namespace fbosim::privacy

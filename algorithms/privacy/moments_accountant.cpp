#include "algorithms/privacy/moments_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::privacy {

MomentsAccountant::MomentsAccountant() : rdp_total_(kMaxOrder - kMinOrder + 1, 0.0) {}

double MomentsAccountant::rdp(double q, double z, int alpha) {
  check_poisson_gaussian(q, z);
  if (alpha < 2)
    throw std::invalid_argument(
        fmt::format("RDP order alpha must be an integer >= 2, got {}", alpha));
  // log A_alpha = logsumexp_k [log C(alpha,k) + (alpha-k) log(1-q) + k log q + (k^2-k)/(2 z^2)]
  // (Abadi et al. 2016 / Mironov et al. 2019, integer alpha), the accountant DP-FTS-DE uses (Dai
  // et al. 2021, Sec. 2 and footnote 4). Terms with alpha - k > 0 and q = 1 carry log(0) = -inf
  // and drop out, leaving alpha / (2 z^2).
  const double log_q = std::log(q);
  const double log_1mq = std::log1p(-q);
  const double a = alpha;
  std::vector<double> terms;
  terms.reserve(static_cast<std::size_t>(alpha) + 1);
  for (int k = 0; k <= alpha; ++k) {
    if (k < alpha && q == 1.0) continue;
    const double kk = k;
    const double log_binom = std::lgamma(a + 1) - std::lgamma(kk + 1) - std::lgamma(a - kk + 1);
    const double tail = k < alpha ? (a - kk) * log_1mq : 0.0;
    terms.push_back(log_binom + tail + kk * log_q + (kk * kk - kk) / (2 * z * z));
  }
  // logsumexp as m + log1p(sum of the others): RDP is tiny for small q, large z, and the
  // log1p keeps its relative accuracy there.
  const auto top = std::max_element(terms.begin(), terms.end());
  const double m = *top;
  double others = 0;
  for (auto it = terms.begin(); it != terms.end(); ++it)
    if (it != top) others += std::exp(*it - m);
  return (m + std::log1p(others)) / (a - 1);
}

bool MomentsAccountant::supports_mechanism(const DpEvent& event) const {
  return as_poisson_gaussian(event).has_value();
}

void MomentsAccountant::compose_mechanism(const DpEvent& event, long long count) {
  const PoissonGaussian e = *as_poisson_gaussian(event);
  if (e.q != cached_q_ || e.z != cached_z_) {
    cached_step_.clear();
    for (int alpha = kMinOrder; alpha <= kMaxOrder; ++alpha)
      cached_step_.push_back(rdp(e.q, e.z, alpha));
    cached_q_ = e.q;
    cached_z_ = e.z;
  }
  // RDP composes additively over steps (Mironov 2017, Prop. 1).
  for (int alpha = kMinOrder; alpha <= kMaxOrder; ++alpha)
    rdp_total_[alpha - kMinOrder] += static_cast<double>(count) * cached_step_[alpha - kMinOrder];
}

EpsilonResult MomentsAccountant::private_epsilon(double delta) const {
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  if (steps() == 0) return {0.0, 0.0};
  // The conversion the paper used (Abadi et al. 2016, Thm. 2 in RDP form), not the tighter
  // one of later work (the rdp and pld accountants; DP-FTS-DE's Sec. 7 names the moments
  // accountant's looseness as a limitation).
  EpsilonResult best{std::numeric_limits<double>::infinity(), 0.0};
  for (int alpha = kMinOrder; alpha <= kMaxOrder; ++alpha) {
    const double eps = rdp_total_[alpha - kMinOrder] + std::log(1 / delta) / (alpha - 1);
    if (eps < best.epsilon) best = {eps, static_cast<double>(alpha)};
  }
  return best;
}

AccountantEntry moments_accountant_entry() {
  return {"moments", "the DP-FTS-DE paper's: the moments accountant of Abadi et al. 2016",
          [] { return std::make_unique<MomentsAccountant>(); }, true};
}

}  // namespace fbosim::privacy

#include "algorithms/server/local_coin.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::server {

namespace {

// m/n >= q in real arithmetic: q n is exact in long double for n <= 10^6 (a 53-bit q times a
// 20-bit n fits the 64-bit significand of x87's long double; the static_assert guards it).
bool at_least(long long m, long long n, double q) {
  static_assert(sizeof(long double) > sizeof(double), "m/n >= q needs a wider product");
  return static_cast<long double>(m) >= static_cast<long double>(q) * n;
}

}  // namespace

CoinFraction coin_fraction(double q) {
  if (!(q > 0 && q <= 1))
    throw std::invalid_argument(fmt::format("server.sampling_rate must be in (0, 1], got {}", q));
  // The smallest n <= 1000 whose fraction ceil(q n) / n is within 1e-12 of q (q = 0.25: 1/4),
  // else the smallest fraction >= q with n = kCoinDenominator (at most 1e-6 above q).
  const auto smallest_m = [q](long long n) {
    long long m = static_cast<long long>(std::ceil(q * static_cast<double>(n)));
    while (!at_least(m, n, q)) ++m;
    while (m > 1 && at_least(m - 1, n, q)) --m;
    return m;
  };
  for (long long n = 1; n <= 1000; ++n) {
    const long long m = smallest_m(n);
    if (static_cast<double>(m) / static_cast<double>(n) - q <= 1e-12)
      return {static_cast<int>(m), static_cast<int>(n)};
  }
  return {static_cast<int>(smallest_m(kCoinDenominator)), kCoinDenominator};
}

privacy::DpEvent local_coin_event(double q, double z_local) {
  if (!(std::isfinite(z_local) && z_local > 0))
    throw std::invalid_argument(
        fmt::format("server.local_z must be finite and > 0, got {}", z_local));
  const CoinFraction f = coin_fraction(q);
  return privacy::DpEvent::fixed_sampled(f.m, f.n, privacy::DpEvent::gaussian(2 * z_local));
}

}  // namespace fbosim::server

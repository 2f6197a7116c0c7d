#pragma once
// Sums of probabilities kept as logarithms, shared by the accountants (RDP's binomial
// expansions, the PLD's tail masses): exact where the terms underflow.
#include <algorithm>
#include <cmath>
#include <limits>

namespace fbosim::privacy {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// log(e^a + e^b); either may be -inf.
inline double log_add(double a, double b) {
  if (a == -kInf) return b;
  if (b == -kInf) return a;
  return std::max(a, b) + std::log1p(std::exp(-std::abs(a - b)));
}

}  // namespace fbosim::privacy

#pragma once
// A privacy-loss distribution (PLD) on the grid {k h : k integer}, with the operations that keep
// it an upper or a lower bound: composition by FFT convolution, tail truncation and the
// (epsilon, delta) curve (Koskela, Jalko, Honkela 2020; Doroshenko et al. 2022; the layout of
// google/dp_accounting's pld_pmf).
//
// A PLD here is the law of the privacy loss L = log(P(o)/Q(o)), o ~ P, of one neighbouring pair;
// its hockey-stick divergence is delta(eps) = m_inf + sum_{l > eps} p(l) (1 - e^{eps - l})
// (Sommer, Meiser, Mohammadi 2019, Thm. 1; m_inf is the mass at l = +infinity). delta(eps) grows
// when any loss grows, so moving mass up (to +infinity in the limit) keeps an upper bound and
// moving it down (to -infinity: dropping it) keeps a lower bound, also after convolution.
#include <cstdint>
#include <vector>

namespace fbosim::privacy {

/// Which side of the true curve a discrete PLD stays on.
enum class Bound { upper, lower };

struct PldPmf {
  std::int64_t offset = 0;     ///< the loss of p[0] is offset * h
  std::vector<double> p{1.0};  ///< masses at consecutive grid points (the identity by default)
  double inf_mass = 0.0;       ///< mass at loss +infinity (counted fully in delta)
};

/// Mass cut at each end after every convolution (dp_accounting's tail_mass_truncation): an upper
/// PLD moves it up (low end onto the first kept point, high end to +infinity), a lower PLD drops
/// it.
inline constexpr double kPldTailMass = 1e-15;
/// Largest PLD (grid points) the composition builds; beyond it, it throws std::length_error.
inline constexpr std::size_t kPldMaxPoints = std::size_t{1} << 23;

/// Cuts tail mass below `tail` at each end, keeping `bound`.
void truncate(PldPmf& d, Bound bound, double tail = kPldTailMass);
/// The PLD of the composition of two independent mechanisms (convolution), truncated.
PldPmf convolve(const PldPmf& a, const PldPmf& b, Bound bound);
/// count-fold self-composition by repeated squaring (2 log2(count) convolutions at most).
PldPmf self_compose(const PldPmf& a, long long count, Bound bound);
/// delta(eps) of a PLD on grid h.
double delta_for_epsilon(const PldPmf& d, double h, double eps);
/// Smallest eps >= 0 with delta(eps) <= delta: the exact inverse of the piecewise-exponential
/// curve. +infinity when m_inf >= delta (the caller must not print it silently).
double epsilon_for_delta(const PldPmf& d, double h, double delta);

}  // namespace fbosim::privacy

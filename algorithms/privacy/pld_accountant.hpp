#pragma once
// Privacy-loss-distribution (PLD) accountant for the Poisson-subsampled Gaussian mechanism
// (Koskela, Jalko, Honkela 2020, "Computing tight differential privacy guarantees using FFT";
// Doroshenko et al. 2022; google/dp_accounting's pld).
//
// One step's privacy loss L = log(P(x)/Q(x)), x ~ P, for both neighbouring relations of the
// sampled Gaussian (Zhu, Dong, Wang 2022: its dominating pairs; sensitivity 1, sigma = z):
//   remove: P = (1-q) N(0,z^2) + q N(1,z^2), Q = N(0,z^2);  add: P = N(0,z^2), Q = the mixture.
// L is monotone in x, so the exact probability of every loss interval ((k-1)h, kh] comes from
// normal CDFs. Pessimistic discretisation: each interval's mass is put at its upper end kh, the
// upper tail beyond the grid at +infinity (it counts fully in delta) and the lower tail at the
// lowest grid point. Every loss is rounded UP, so every delta below is an upper bound, also after
// composition (convolution preserves the ordering). Rounding DOWN instead shifts each step's
// losses by exactly -h, so the composed optimistic PLD is the pessimistic one shifted by -T h:
// the true epsilon lies in [eps_pess - T h, eps_pess] (up to the truncated tail mass, <= 1e-12):
// that width is the reported discretisation error.
// T steps compose by FFT convolution with repeated squaring; after each product, tail mass
// below 1e-15 is cut pessimistically (low end up to the first kept point, high end to +inf).
// delta(eps) = m_inf + sum_{l > eps} p(l) (1 - e^{eps - l}) (Sommer et al. 2019, Thm. 1), and
// eps(delta) is its exact inverse on the piecewise-exponential curve.
#include <cstdint>
#include <vector>

#include "algorithms/privacy/accountant.hpp"

namespace fbosim::privacy {

struct EpsilonBounds {
  double lower;  ///< optimistic (a lower bound on the true epsilon)
  double upper;  ///< pessimistic (the reported, sound epsilon)
};

class PldAccountant final : public Accountant {
 public:
  /// grid_width h > 0 of the loss grid; 0 chooses it from the composed steps (see grid_for).
  explicit PldAccountant(double grid_width = 0);
  std::string name() const override { return "pld"; }
  /// Poisson sampling only (throws std::invalid_argument for fixed-size sampling).
  void compose(const DpEvent& event, int count = 1) override;
  /// The pessimistic epsilon (an upper bound); order is 0.
  EpsilonResult epsilon(double delta) const override;
  EpsilonBounds epsilon_bounds(double delta) const;
  int steps() const override { return steps_; }
  /// The grid width used for the events composed so far.
  double grid_width() const;
  /// Adaptive width: 1e-3 up to 40 steps (error bound T h <= 0.04 on the paper's settings),
  /// then growing like sqrt(T) as the composed loss spreads, so the grid stays near 2^15
  /// points and T = 1000 answers in tens of milliseconds (error bound 5e-3 T there).
  static double grid_for(int steps);

  struct Pld {
    std::int64_t offset = 0;  ///< loss of p[0] is offset * h
    std::vector<double> p{1.0};
    double inf_mass = 0.0;
  };
  /// One step's pessimistic PLD on grid h for the remove (add = false) or add relation.
  static Pld single(double q, double z, double h, bool add);
  static Pld convolve(const Pld& a, const Pld& b);
  static Pld self_compose(const Pld& a, int count);
  /// Smallest eps >= 0 with delta(eps) <= delta for a PLD on grid h.
  static double epsilon_of(const Pld& pld, double h, double delta);

 private:
  struct Group {
    double q, z;
    int count;
  };
  double pessimistic_epsilon(double delta, double h) const;

  double grid_width_;
  std::vector<Group> groups_;
  int steps_ = 0;
};

}  // namespace fbosim::privacy

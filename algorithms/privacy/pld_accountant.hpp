#pragma once
// Privacy-loss-distribution (PLD) accountant for the Poisson-subsampled Gaussian mechanism
// (Koskela, Jaelkoe, Honkela 2020, "Computing tight differential privacy guarantees using FFT";
// Doroshenko et al. 2022, "Connect the dots", as google/dp_accounting's pld does).
//
// One step's privacy loss L = log(P(x)/Q(x)), x ~ P, is discretised on the grid {k h}:
//  * pessimistic: losses rounded UP to the grid, the mass beyond the upper truncation point
//    moved to +infinity (counted in delta) and the lower tail moved up to the lowest grid
//    point; this is a pointwise upper coupling of L, so every delta below is an upper bound
//    (Koskela et al. 2020, Sec. 3; Doroshenko et al. 2022, Sec. 2.2);
//  * optimistic: losses rounded DOWN, the upper tail put on the highest grid point and the lower
//    tail dropped (loss -infinity); a lower bound, reported as the discretisation error.
// T steps compose by convolution of the discrete PLDs (FFT, repeated squaring with tail
// truncation after each product; truncated mass is moved pessimistically / optimistically
// as above). delta(eps) = m_inf + sum_{l > eps} p(l) (1 - e^{eps - l}) (Sommer et al. 2019,
// Thm. 1; Koskela et al. 2020, eq. (2.3)), and epsilon(delta) is its exact inverse on the
// piecewise-exponential curve.
//
// Both neighbouring relations are accounted (dp_accounting's two PLDs): "remove"
// P = (1-q) N(0,s^2) + q N(1,s^2), Q = N(0,s^2) and "add" P = N(0,s^2), Q = the mixture; the
// result is the larger epsilon (Zhu, Dong, Wang 2022, Prop. 30: the dominating pair of the
// subsampled Gaussian under add/remove adjacency).
#include <cstdint>
#include <vector>

#include "algorithms/privacy/accountant.hpp"

namespace fbosim::privacy {

/// Epsilon bracket from the optimistic (lower) and pessimistic (upper) discretisations.
struct EpsilonBounds {
  double lower;
  double upper;
};

class PldAccountant final : public Accountant {
 public:
  /// grid_width: the loss discretisation h (> 0); tail_mass: the probability mass truncated
  /// at each end of a distribution (single step and after each convolution), in (0, 1e-3].
  explicit PldAccountant(double grid_width = 1e-4, double tail_mass = 1e-15);
  std::string name() const override { return "pld"; }
  /// Accepts Poisson events; throws std::invalid_argument for fixed-size sampling (not
  /// supported) or out-of-range q, z, count.
  void compose(const DpEvent& event, int count = 1) override;
  /// The pessimistic (upper-bound) epsilon; order is 0.
  EpsilonResult epsilon(double delta) const override;
  /// {optimistic, pessimistic} epsilon: the true epsilon of the composed subsampled Gaussian
  /// lies in between (up to floating-point error of the FFT).
  EpsilonBounds epsilon_bounds(double delta) const;
  int steps() const override { return steps_; }
  double grid_width() const { return h_; }

  /// A discrete PLD: mass p[i] at loss (offset + i) h, plus mass at +infinity.
  struct Pld {
    std::int64_t offset = 0;
    std::vector<double> p{1.0};
    double inf_mass = 0.0;
  };

 private:
  struct Group {
    double q, z;
    int count;
  };
  // Composed PLDs for both relations, pessimistic or optimistic.
  std::vector<Pld> composed(bool pessimistic) const;
  double epsilon_of(bool pessimistic, double delta) const;

  double h_;
  double tail_;
  std::vector<Group> groups_;
  int steps_ = 0;
};

}  // namespace fbosim::privacy

#pragma once
// Privacy-loss-distribution (PLD) accountant for the Poisson-subsampled Gaussian mechanism
// (Koskela, Jalko, Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, "Connect the
// dots"; google/dp_accounting's PLDAccountant).
//
// One step's privacy loss L = log(P(x)/Q(x)), x ~ P, for both neighbouring relations of the
// sampled Gaussian (Zhu, Dong, Wang 2022: its dominating pairs; sensitivity 1, sigma = z):
//   remove: P = (1-q) N(0,z^2) + q N(1,z^2), Q = N(0,z^2);  add: P = N(0,z^2), Q = the mixture.
// L is monotone in x, so P and Q of every loss interval come from normal CDFs, and every
// discretisation below is exact up to floating point. Two discretisations on the grid {k h}:
//  * upper (reported): connect-the-dots (Doroshenko et al. 2022, Sec. 3): the mass of each cell
//    [kh, (k+1)h] is split between its two ends so that P and Q = e^{-L} P are both preserved.
//    The true pair is a post-processing of the split pair (merge the two ends back), so the
//    split PLD dominates it, also after composition; its bias is second order, at most h^2/8
//    per step in the mean loss (Jensen on -log over one cell), not the h per step of rounding up.
//  * lower: the exact pair post-processed by merging the outputs of each cell
//    ((k-1/2)h, (k+1/2)h] (its loss lands within O(h^2) of kh), then aligned on the grid by
//    merging in a sliver of the neighbouring mass (below or above), or where none is left by
//    rounding down; merging and rounding down only lower the curve (data processing;
//    delta(eps) grows with every loss), so this PLD is dominated by the true one, also after
//    composition. Its error is second order too: the bracket is about 0.4 T h^2 wide.
// One step's tails beyond 1e-18 (upper: to +infinity; lower: dropped) and, after every
// convolution, 1e-15 per end are cut, keeping each side. The true epsilon lies in
// [epsilon(lower), epsilon(upper)]; both relations are computed and the larger kept.
// Grid width [choice]: one fixed h per query, h = max(1e-4, W / target_points(T)) with W the
// spread of the composed loss (1e-4 is dp_accounting's default; coarser only where W is large),
// but at most 1/16 of one step's loss standard deviation (connect the dots adds up to h^2/4 to
// each step's variance) unless the grid would pass 2^21 points. Tails are evaluated in log
// space: at tiny z a cell's Q = e^{-l} P is far below the smallest double while e^l Q is not.
// T-fold self-composition uses repeated squaring (O(log T) FFTs); distinct events compose by
// convolution, so rounds with different q or z are exact too.
#include <vector>

#include "algorithms/privacy/accountant_entry.hpp"
#include "algorithms/privacy/pld_distribution.hpp"

namespace fbosim::privacy {

struct EpsilonBounds {
  double lower;  ///< optimistic (a lower bound on the true epsilon)
  double upper;  ///< pessimistic (the reported, sound epsilon)
};

class PldAccountant final : public Accountant {
 public:
  /// grid_width h > 0 of the loss grid; 0 chooses it from the composed events (see grid_width).
  explicit PldAccountant(double grid_width = 0);
  std::string name() const override { return "pld"; }
  /// The bracket [lower, upper] around the true epsilon (twice the work of epsilon()).
  EpsilonBounds epsilon_bounds(double delta) const;
  /// The grid width used for the events composed so far.
  double grid_width() const;

  static constexpr double kMinGridWidth = 1e-4;
  static constexpr double kStepTailMass = 1e-18;
  /// Points the composed PLD aims at: 2^15 up to T = 1000 steps (a few ms per composition),
  /// then growing like sqrt(T) up to 2^21, so that the bracket, about 0.4 T h^2 wide (the
  /// second-order bias of both discretisations), stays near 1e-4 of epsilon at long horizons.
  static double target_points(double steps);

  /// One step's PLD on grid h for the remove (add = false) or add relation.
  static PldPmf single(double q, double z, double h, bool add, Bound bound);

 protected:
  /// Gaussian and PoissonSampled(Gaussian).
  bool supports_mechanism(const DpEvent& event) const override;
  void compose_mechanism(const DpEvent& event, long long count) override;
  /// The upper bound; order is 0. Throws std::domain_error where delta is below the mass the
  /// PLD leaves at +infinity (it cannot answer), std::length_error where the grid is too large.
  EpsilonResult private_epsilon(double delta) const override;
  std::string supported() const override { return "Gaussian, PoissonSampled(Gaussian)"; }

 private:
  struct Group {
    double q, z;
    long long count;
  };
  double relation_epsilon(double delta, double h, bool add, Bound bound) const;
  double bound_epsilon(double delta, double h, Bound bound) const;

  double grid_width_;
  std::vector<Group> groups_;
};

/// The registry's entry (accountant_registry()).
AccountantEntry pld_accountant_entry();

}  // namespace fbosim::privacy

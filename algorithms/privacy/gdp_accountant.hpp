#pragma once
// Gaussian-DP accountant: the central-limit APPROXIMATION of Bu, Dong, Long, Su 2020 ("Deep
// learning with Gaussian differential privacy", Thm. 5) for Poisson-subsampled Gaussian steps:
// T steps of (q, z) are approximately mu-GDP with mu^2 = sum_t q_t^2 (e^{1/z_t^2} - 1); a step
// with q = 1 is exactly (1/z)-GDP and contributes 1/z^2. mu-GDP converts exactly to
// delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth, Su 2019, Cor. 2.13),
// inverted by bisection. Not an upper bound for finite T (the CLT can under-estimate epsilon
// for small T or large q): never the default, and `fbosim privacy` says so.
#include "algorithms/privacy/accountant.hpp"

namespace fbosim::privacy {

class GdpAccountant final : public Accountant {
 public:
  std::string name() const override { return "gdp"; }
  /// Poisson sampling only (throws std::invalid_argument for fixed-size sampling).
  void compose(const DpEvent& event, int count = 1) override;
  /// order is 0 (not an RDP accountant).
  EpsilonResult epsilon(double delta) const override;
  int steps() const override { return steps_; }
  double mu() const;
  /// delta(eps) of mu-GDP.
  static double delta_of(double mu, double epsilon);
  /// The smallest epsilon >= 0 with delta_of(mu, epsilon) <= delta.
  static double epsilon_of(double mu, double delta);

 private:
  double mu_squared_ = 0;
  int steps_ = 0;
};

}  // namespace fbosim::privacy

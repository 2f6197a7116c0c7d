#pragma once
// Gaussian-DP accountant: the central-limit APPROXIMATION of Bu, Dong, Long, Su 2020 ("Deep
// learning with Gaussian differential privacy", Thm. 5) for Poisson-subsampled Gaussian steps:
// T steps of (q, z) are approximately mu-GDP with mu^2 = sum_t q_t^2 (e^{1/z_t^2} - 1); a step
// with q = 1 is exactly (1/z)-GDP and contributes 1/z^2. mu-GDP converts exactly to
// delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth, Su 2019, Cor. 2.13),
// inverted by bisection. Not an upper bound for finite T (the CLT can under-estimate epsilon
// for small T or large q): never the default, refused as a run's `server.accountant` (its extra
// column is epsilon_gdp_approx), and `fbosim privacy` says so.
#include "algorithms/privacy/accountant_entry.hpp"

namespace fbosim::privacy {

class GdpAccountant final : public Accountant {
 public:
  std::string name() const override { return "gdp"; }
  /// An approximation, not a bound (e.g. 5.0647 where the sound value is 5.1926 at q = 0.01,
  /// z = 1.1, T = 10,000, delta = 1e-5).
  bool is_bound() const override { return false; }
  double mu() const;
  /// delta(eps) of mu-GDP.
  static double delta_of(double mu, double epsilon);
  /// The smallest epsilon >= 0 with delta_of(mu, epsilon) <= delta.
  static double epsilon_of(double mu, double delta);

 protected:
  /// Gaussian and PoissonSampled(Gaussian) (the CLT is for Poisson sampling).
  bool supports_mechanism(const DpEvent& event) const override;
  void compose_mechanism(const DpEvent& event, long long count) override;
  /// order is 0 (not an RDP accountant).
  EpsilonResult private_epsilon(double delta) const override;
  std::string supported() const override { return "Gaussian, PoissonSampled(Gaussian)"; }

 private:
  double mu_squared_ = 0;
};

/// The registry's entry (accountant_registry()).
AccountantEntry gdp_accountant_entry();

}  // namespace fbosim::privacy

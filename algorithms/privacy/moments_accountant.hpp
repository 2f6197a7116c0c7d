#pragma once
// Moments accountant (Abadi et al. 2016) exactly as DP-FTS-DE used it (its Sec. 2,
// footnote 4, and Prop. 1): RDP of the Poisson-subsampled Gaussian at integer orders alpha = 2..33,
//   log A_alpha = logsumexp_k [ log C(alpha,k) + (alpha-k) log(1-q) + k log q + (k^2-k)/(2 z^2) ],
//   RDP(alpha) = log A_alpha / (alpha - 1),
// summed over steps and converted by epsilon = min_alpha RDP_total(alpha) + log(1/delta)/(alpha-1).
#include <vector>

#include "algorithms/privacy/accountant_entry.hpp"

namespace fbosim::privacy {

class MomentsAccountant final : public Accountant {
 public:
  static constexpr int kMinOrder = 2;
  static constexpr int kMaxOrder = 33;

  MomentsAccountant();
  std::string name() const override { return "moments"; }

  /// RDP(alpha) of one Poisson-subsampled Gaussian step, integer alpha >= 2.
  static double rdp(double q, double z, int alpha);

 protected:
  /// Gaussian and PoissonSampled(Gaussian) (the bound is for Poisson sampling).
  bool supports_mechanism(const DpEvent& event) const override;
  void compose_mechanism(const DpEvent& event, long long count) override;
  EpsilonResult private_epsilon(double delta) const override;
  std::string supported() const override { return "Gaussian, PoissonSampled(Gaussian)"; }

 private:
  std::vector<double> rdp_total_;  // index alpha - kMinOrder
  // One step's RDP at every order for the last (q, z) composed: a curve of many step counts
  // (epsilon_series) composes the same event again and again.
  double cached_q_ = -1, cached_z_ = -1;
  std::vector<double> cached_step_;
};

/// The registry's entry (accountant_registry()).
AccountantEntry moments_accountant_entry();

}  // namespace fbosim::privacy

#pragma once
// Basic composition (Dwork, Roth 2014, "The Algorithmic Foundations of Differential Privacy",
// Thm. 3.16): mechanisms that are (eps_i, delta_i)-DP compose to (sum eps_i, sum delta_i)-DP.
// Supports EpsilonDelta and the Laplace mechanism of sensitivity 1 and scale b, which is
// (1/b, 0)-DP (ibid., Thm. 3.6). The Gaussian mechanism has no single (eps, delta) pair and is
// not supported: use an RDP or PLD accountant for it. Loose but simple, and exact for one
// pure-DP mechanism.
// Also RepeatAndSelect(base, mean, eta) of a pure eps-DP base (Laplace or EpsilonDelta with
// delta = 0) and a truncated negative binomial K (finite eta): ((2 + eta) eps, 0)-DP, the limit
// lambda, lambda-hat -> infinity of Papernot & Steinke 2022, Thm. 2 (their pure-DP corollary;
// dp_accounting's test of it). Poisson repetitions have no pure-DP bound and are refused.
#include <optional>
#include <vector>

#include "algorithms/privacy/accountant_entry.hpp"

namespace fbosim::privacy {

class BasicAccountant final : public Accountant {
 public:
  std::string name() const override { return "basic"; }
  /// The composed pair (sum of epsilons, sum of deltas).
  double epsilon_sum() const { return epsilon_sum_; }
  double delta_sum() const { return delta_sum_; }

 protected:
  bool supports_mechanism(const DpEvent& event) const override;
  void compose_mechanism(const DpEvent& event, long long count) override;
  /// {sum of epsilons, 0} for any delta in [delta_sum(), 1); throws std::domain_error, saying
  /// so, for a delta below the composed delta sum, std::invalid_argument outside [0, 1).
  EpsilonResult private_epsilon(double delta) const override;
  std::string supported() const override {
    return "EpsilonDelta, Laplace, RepeatAndSelect(pure-DP base, truncated negative binomial)";
  }

 private:
  double epsilon_sum_ = 0, delta_sum_ = 0;
};

/// The delta basic composition spends on `events` (each once), summed by the accountant itself
/// (a sum in another order could fall below its own by an ulp): a run's default delta when its
/// releases are (epsilon, delta) events. None when it is not in (0, 1).
std::optional<double> composed_delta(const std::vector<DpEvent>& events);

/// The registry's entry (accountant_registry()).
AccountantEntry basic_accountant_entry();

}  // namespace fbosim::privacy

#pragma once
// Renyi-DP accountant for the subsampled Gaussian mechanism on a dense grid of fractional and
// integer orders (1.01 .. 512), with the improved RDP -> (epsilon, delta) conversion.
//  * Poisson sampling: the exact RDP of the sampled Gaussian mechanism (Mironov, Talwar, Zhang
//    2019, "Renyi DP of the Sampled Gaussian Mechanism", Sec. 3.3: integer orders by the binomial
//    expansion, fractional orders by the two convergent series with erfc terms).
//  * Fixed-size sampling without replacement (batch m = floor(N q), gamma = m / N): the general
//    upper bound of Wang, Balle, Kasiviswanathan 2019, Thm. 9, at integer orders only (their
//    bound is stated for integer alpha). Sampling without replacement is defined under the
//    replace-one relation, for which the clipped sum has sensitivity 2 x the clip bound, so the
//    base Gaussian has RDP alpha * 2^2 / (2 z^2) [choice: the sound one; accountants that treat
//    the noise multiplier as relative to the clip bound, as TF-Privacy's helper does when it is
//    called with z, report a smaller epsilon].
//  * Laplace mechanism of sensitivity 1 and scale b: the closed form of Mironov 2017, Prop. 6,
//    RDP(alpha) = log(alpha/(2 alpha - 1) e^{(alpha-1)/b} + (alpha-1)/(2 alpha - 1) e^{-alpha/b})
//    / (alpha - 1), at every order.
//  * RepeatAndSelect(base, mean, shape), the best of K runs of a supported base mechanism
//    (Papernot & Steinke 2022, ICLR): for a truncated negative binomial K (their Thm. 2, with
//    lambda-hat the best order of the grid and the mean of the gamma actually used),
//      rdp(lambda) = rdp_base(lambda) + (1 + eta) min_l [(1 - 1/l) rdp_base(l) + log(1/gamma) / l]
//                    + log(E[K]) / (lambda - 1),
//    then made non-decreasing in lambda (RDP is monotone in the order); for Poisson(mu) (their
//    Thm. 6), rdp(lambda) = rdp_base(lambda) + mu delta_hat + log(mu) / (lambda - 1) with
//    delta_hat = delta_of(base, eps_hat = log(1 + 1/(lambda - 1))). The same choices as
//    dp_accounting's _compute_rdp_repeat_and_select.
//  * Conversion: epsilon = min_alpha rdp(alpha) + log1p(-1/alpha) - (log delta + log alpha) /
//    (alpha - 1) (Canonne, Kamath, Steinke 2020, Prop. 12; Asoodeh et al. 2021), or the
//    classic rdp(alpha) + log(1/delta) / (alpha - 1) (Mironov 2017, Prop. 3) on request, for
//    comparison with published numbers that used it.
// Rounds compose by adding RDP curves, so rounds with different q or z compose exactly; each
// distinct event's curve is computed once per thread, shared by every accountant on it (a
// per-agent ledger makes one accountant per distinct count vector, each composing the same few
// events: the curves, ~90 % of the time before, are pure functions of the event's parameters).
#include <tuple>
#include <vector>

#include "algorithms/privacy/accountant_entry.hpp"

namespace fbosim::privacy {

class RdpAccountant final : public Accountant {
 public:
  enum class Conversion { improved, classic };
  explicit RdpAccountant(Conversion conversion = Conversion::improved);
  std::string name() const override { return "rdp"; }

  /// The orders of the grid (ascending).
  static const std::vector<double>& orders();
  /// RDP of one Poisson-subsampled Gaussian step at order alpha > 1 (any real alpha).
  static double poisson_rdp(double q, double z, double alpha);
  /// RDP bound of one fixed-size (without replacement) step at integer order alpha >= 2 with
  /// sampling ratio gamma = m / N and base RDP eps(j) = j * 2 / z^2 (sensitivity 2).
  static double fixed_rdp(double gamma, double z, int alpha);
  /// RDP of the Laplace mechanism (sensitivity 1, scale b) at order alpha > 1.
  static double laplace_rdp(double b, double alpha);
  /// The smallest delta such that a mechanism with RDP curve `rdp` at `orders` (> 1) is
  /// (epsilon, delta)-DP by either conversion: exp((a - 1)(rdp - eps + log(1 - 1/a)) - log a)
  /// (Canonne, Kamath, Steinke 2020, Prop. 12; orders > 1.01) or sqrt(1 - e^-rdp) (KL and
  /// Bretagnolle-Huber); at most 1.
  static double delta_of(const std::vector<double>& orders, const std::vector<double>& rdp,
                         double epsilon);
  /// The RDP curve of the best of K runs (RepeatAndSelect) of a mechanism with curve `rdp` at
  /// `orders`, K with the given mean and shape (+inf: Poisson); +inf where undefined.
  static std::vector<double> repeat_and_select_rdp(const std::vector<double>& orders,
                                                   const std::vector<double>& rdp, double mean,
                                                   double shape);

 protected:
  /// Gaussian, PoissonSampled(Gaussian), FixedSampled(Gaussian), Laplace and RepeatAndSelect
  /// of one of them.
  bool supports_mechanism(const DpEvent& event) const override;
  void compose_mechanism(const DpEvent& event, long long count) override;
  EpsilonResult private_epsilon(double delta) const override;
  std::string supported() const override {
    return "Gaussian, PoissonSampled(Gaussian), FixedSampled(Gaussian), Laplace, "
           "RepeatAndSelect of one of them";
  }

 private:
  using Key = std::tuple<int, double, double, int>;  // kind and parameters
  static const std::vector<double>& curve(const DpEvent& event);
  static bool base_supported(const DpEvent& event);

  Conversion conversion_;
  std::vector<double> total_;  // summed RDP per order (+inf where undefined)
};

/// The registry's entry (accountant_registry()).
AccountantEntry rdp_accountant_entry();

}  // namespace fbosim::privacy

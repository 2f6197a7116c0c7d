#pragma once
// The constants of Kusner, Gardner, Garnett & Weinberger, "Differentially Private Bayesian
// Optimization" (ICML 2015) for GP-UCB on a finite set Lambda of candidate hyperparameters,
// T observations, a validation set V whose neighbours swap one record, and a normalised kernel
// (k(x, x) = 1). Every formula was stripped from our copy of the paper: these are our
// reconstructions, each tagged ([R-proof]: rebuilt from the proof's
// narrative; [R-std]: the standard result the paper cites; [G]: our choice). They hold under
// the paper's Assumption 1 (every f_V is a draw of a known GP), not for worst-case data: the
// delta of each release is the probability, under that prior, that a bound fails (A7).
#include <optional>

#include <Eigen/Core>

namespace fbosim::release {

struct KusnerSetting {
  long long candidates = 1;  ///< |Lambda|
  int observations = 1;      ///< T
  double delta = 1e-3;       ///< of each release
  double sigma1 = 0;         ///< sqrt(2 - 2 k_V(V, V')) of neighbours (>= 0)
  double noise_var = 0;      ///< sigma^2 of the observations (0: noise-free)
};

/// beta_t = 2 log(|Lambda| t^2 pi^2 / (6 delta / 3)) = 2 log(|Lambda| t^2 pi^2 / (2 delta))
/// [R-proof: Srinivas et al. 2010 Lemma 5.1 at delta / 3, the split of the Thm. 1 proof; the
/// printed Algorithm 1 is stripped (A3)]. The same beta runs the UCB and enters the bounds.
double kusner_beta(long long candidates, int t, double delta);
/// sigma_1 = sqrt(2 - 2 k_V) for the set-kernel value k_V in [0, 1] of neighbouring validation
/// sets [R-proof; the paper gives no set kernel (A8): k_V is an input].
double sigma1_of(double neighbour_kernel);
/// c = 2 sqrt(beta_{T+1}) + sigma_1 sqrt(2 log(3 |Lambda| / delta)): the sensitivity of the
/// posterior mean mu_T, w.p. >= 1 - delta (Thm. 1 [R-proof]); the exponential mechanism's.
double hyperparameter_sensitivity(const KusnerSetting& s);
/// a_T = sigma sqrt(2 log(3 T / delta)): |noise| of all T observations, w.p. >= 1 - delta / 3
/// [R-proof; Thm. 4's union bound, used in Thm. 3 too: the conservative reading of A5].
double noise_bound(const KusnerSetting& s);
/// c' = sqrt(C1 beta_T gamma_T / T) + sigma_1 sqrt(2 log(3 |Lambda| / delta)) + 2 a_T with
/// C1 = 8 / log(1 + sigma^-2) [R-std]: the sensitivity of the best observation max_t y_t, w.p.
/// >= 1 - delta (Thm. 3 [R-proof]); the Laplace mechanism's. gamma_T: a bound on the maximum
/// information gain (information_gain_bound). Needs noise_var > 0 (gamma_T is unbounded as
/// sigma -> 0: the paper's reason for the noise-free algorithm).
double value_sensitivity(const KusnerSetting& s, double gamma_T);
/// Delta_5 = A exp(-tau T / (log T)^(d/4)) + sigma_1 sqrt(2 log(3 |Lambda| / delta)): the
/// sensitivity of the best noise-free observation (Thm. 5 [R, constants unknown]) given the
/// constants A, tau of de Freitas et al. 2012's regret bound, which cannot be computed from
/// data (A14): the user must supply them. We take k = 3 in log(k |Lambda| / delta) [choice: the
/// larger of the two splits of delta the proof allows]. d: the hyperparameters' dimension; T >= 2.
double noise_free_value_sensitivity(const KusnerSetting& s, int dim, double A, double tau);

/// gamma_T <= (1 - 1/e)^-1 I(greedy): the information gain 1/2 sum log(1 + sigma^-2 var_{t-1}(x_t))
/// of T greedy (maximum-variance) picks from the candidates, with repeats, under the SE kernel
/// of variance 1 and the given length scale (Srinivas et al. 2010, sec. 5: F(A) = 1/2 log|I +
/// sigma^-2 K_A| is monotone submodular, so greedy is within 1 - 1/e of the maximum, Nemhauser
/// et al. 1978) [G: A9's first option]. candidates: n x d. noise_var > 0.
double information_gain_bound(const Eigen::MatrixXd& candidates, double lengthscale,
                              double noise_var, int T);
/// The trivial gamma_T <= T/2 log(1 + sigma^-2) [G: A9's second option].
double trivial_information_gain_bound(double noise_var, int T);

}  // namespace fbosim::release

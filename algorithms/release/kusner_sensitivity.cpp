#include "algorithms/release/kusner_sensitivity.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/surrogate/candidate_gp.hpp"

namespace fbosim::release {

namespace {
void check(const KusnerSetting& s) {
  if (s.candidates < 1)
    throw std::invalid_argument(fmt::format("|Lambda| must be >= 1, got {}", s.candidates));
  if (s.observations < 1)
    throw std::invalid_argument(fmt::format("T must be >= 1, got {}", s.observations));
  if (!(s.delta > 0 && s.delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", s.delta));
  if (!(s.sigma1 >= 0 && std::isfinite(s.sigma1)))
    throw std::invalid_argument(fmt::format("sigma_1 must be >= 0, got {}", s.sigma1));
  if (!(s.noise_var >= 0 && std::isfinite(s.noise_var)))
    throw std::invalid_argument(fmt::format("noise variance must be >= 0, got {}", s.noise_var));
}

// sigma_1 sqrt(2 log(3 |Lambda| / delta)): the union bound over Lambda of |f_V - f_V'|.
double function_term(const KusnerSetting& s) {
  return s.sigma1 * std::sqrt(2 * std::log(3 * static_cast<double>(s.candidates) / s.delta));
}
}  // namespace

double kusner_beta(long long candidates, int t, double delta) {
  if (candidates < 1 || t < 1 || !(delta > 0 && delta < 1))
    throw std::invalid_argument(
        fmt::format("beta_t needs |Lambda| >= 1, t >= 1 and delta in (0, 1), got {}, {}, {}",
                    candidates, t, delta));
  const double tt = t;
  return 2 * std::log(static_cast<double>(candidates) * tt * tt * std::numbers::pi *
                      std::numbers::pi / (2 * delta));
}

double sigma1_of(double k) {
  if (!(k >= 0 && k <= 1))
    throw std::invalid_argument(
        fmt::format("the set kernel of neighbours must be in [0, 1], got {}", k));
  return std::sqrt(2 - 2 * k);
}

double hyperparameter_sensitivity(const KusnerSetting& s) {
  check(s);
  return 2 * std::sqrt(kusner_beta(s.candidates, s.observations + 1, s.delta)) + function_term(s);
}

double noise_bound(const KusnerSetting& s) {
  check(s);
  return std::sqrt(s.noise_var) *
         std::sqrt(2 * std::log(3 * static_cast<double>(s.observations) / s.delta));
}

double value_sensitivity(const KusnerSetting& s, double gamma_T) {
  check(s);
  if (!(s.noise_var > 0))
    throw std::invalid_argument(
        "the noisy value release needs a noise variance > 0 (C1 = 8 / log(1 + sigma^-2) and "
        "gamma_T are unbounded at sigma = 0); use the noise-free variant");
  if (!(gamma_T >= 0 && std::isfinite(gamma_T)))
    throw std::invalid_argument(fmt::format("gamma_T must be >= 0, got {}", gamma_T));
  const double c1 = 8 / std::log1p(1 / s.noise_var);
  const double T = s.observations;
  const double regret =
      std::sqrt(c1 * kusner_beta(s.candidates, s.observations, s.delta) * gamma_T / T);
  return regret + function_term(s) + 2 * noise_bound(s);
}

double noise_free_value_sensitivity(const KusnerSetting& s, int dim, double A, double tau) {
  check(s);
  if (dim < 1) throw std::invalid_argument(fmt::format("dimension must be >= 1, got {}", dim));
  if (s.observations < 2)
    throw std::invalid_argument("the de Freitas rate needs T >= 2 (log T > 0)");
  if (!(A >= 0 && std::isfinite(A)) || !(tau > 0 && std::isfinite(tau)))
    throw std::invalid_argument(fmt::format(
        "the de Freitas constants need A >= 0 and tau > 0, got A = {}, tau = {}", A, tau));
  const double T = s.observations;
  return A * std::exp(-tau * T / std::pow(std::log(T), dim / 4.0)) + function_term(s);
}

double information_gain_bound(const Eigen::MatrixXd& candidates, double lengthscale,
                              double noise_var, int T) {
  if (!(noise_var > 0)) throw std::invalid_argument("gamma_T needs a noise variance > 0");
  if (T < 1) throw std::invalid_argument(fmt::format("T must be >= 1, got {}", T));
  // The posterior variance does not depend on y: condition on zeros.
  surrogate::ExactGp::Options o;
  o.jitter = 0;
  surrogate::CandidateGp gp(candidates, {lengthscale, 1.0, noise_var}, o);
  double gain = 0;
  for (int t = 0; t < T; ++t) {
    Eigen::Index best = 0;
    const double var = gp.variance().maxCoeff(&best);
    gain += 0.5 * std::log1p(var / noise_var);
    gp.add(best, 0.0);
  }
  return gain / (1 - std::exp(-1.0));
}

double trivial_information_gain_bound(double noise_var, int T) {
  if (!(noise_var > 0)) throw std::invalid_argument("gamma_T needs a noise variance > 0");
  return 0.5 * T * std::log1p(1 / noise_var);
}

}  // namespace fbosim::release

#include "datasets/landmine/platt_scaling.hpp"

#include <cmath>
#include <stdexcept>

namespace fbosim::datasets {

double PlattSigmoid::probability(double f) const {
  const double fab = a * f + b;
  return fab >= 0 ? std::exp(-fab) / (1 + std::exp(-fab)) : 1 / (1 + std::exp(fab));
}

PlattSigmoid fit_platt(const std::vector<double>& dec, const std::vector<int>& labels) {
  if (dec.size() != labels.size() || dec.empty())
    throw std::invalid_argument("fit_platt: decision values and labels differ in size");
  double prior1 = 0, prior0 = 0;
  for (int y : labels) (y == 1 ? prior1 : prior0) += 1;
  const double hi = (prior1 + 1) / (prior1 + 2), lo = 1 / (prior0 + 2);
  std::vector<double> t(dec.size());
  for (std::size_t i = 0; i < dec.size(); ++i) t[i] = labels[i] == 1 ? hi : lo;
  // Negative log-likelihood sum_i (t_i - 1) fab_i + log(1 + e^fab_i), in an overflow-free form.
  const auto objective = [&](double a, double b) {
    double f = 0;
    for (std::size_t i = 0; i < dec.size(); ++i) {
      const double fab = dec[i] * a + b;
      f += fab >= 0 ? t[i] * fab + std::log1p(std::exp(-fab))
                    : (t[i] - 1) * fab + std::log1p(std::exp(fab));
    }
    return f;
  };
  constexpr int kMaxIter = 100;
  constexpr double kMinStep = 1e-10, kSigma = 1e-12, kEps = 1e-5;
  PlattSigmoid s{0.0, std::log((prior0 + 1) / (prior1 + 1))};
  double fval = objective(s.a, s.b);
  for (int iter = 0; iter < kMaxIter; ++iter) {
    double h11 = kSigma, h22 = kSigma, h21 = 0, g1 = 0, g2 = 0;
    for (std::size_t i = 0; i < dec.size(); ++i) {
      const double p = s.probability(dec[i]);
      const double q = 1 - p;
      const double d2 = p * q, d1 = t[i] - p;
      h11 += dec[i] * dec[i] * d2;
      h22 += d2;
      h21 += dec[i] * d2;
      g1 += dec[i] * d1;
      g2 += d1;
    }
    if (std::abs(g1) < kEps && std::abs(g2) < kEps) break;
    const double det = h11 * h22 - h21 * h21;
    const double da = -(h22 * g1 - h21 * g2) / det, db = -(-h21 * g1 + h11 * g2) / det;
    const double gd = g1 * da + g2 * db;
    double step = 1;
    while (step >= kMinStep) {
      const double na = s.a + step * da, nb = s.b + step * db;
      const double nf = objective(na, nb);
      if (nf < fval + 1e-4 * step * gd) {
        s = {na, nb};
        fval = nf;
        break;
      }
      step /= 2;
    }
    if (step < kMinStep) break;  // line search failed: keep the last iterate
  }
  return s;
}

}  // namespace fbosim::datasets

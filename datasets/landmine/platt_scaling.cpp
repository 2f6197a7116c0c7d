#include "datasets/landmine/platt_scaling.hpp"

#include <algorithm>
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

std::vector<double> pairwise_coupling(const std::vector<std::vector<double>>& r) {
  const std::size_t k = r.size();
  if (k < 1) throw std::invalid_argument("pairwise_coupling: no classes");
  for (const auto& row : r)
    if (row.size() != k) throw std::invalid_argument("pairwise_coupling: r must be k x k");
  // Q_tt = sum_{j != t} r_jt^2, Q_tj = -r_jt r_tj: p minimises p'Qp subject to sum p = 1.
  std::vector<std::vector<double>> q(k, std::vector<double>(k, 0.0));
  for (std::size_t t = 0; t < k; ++t)
    for (std::size_t j = 0; j < k; ++j) {
      if (j == t) continue;
      q[t][t] += r[j][t] * r[j][t];
      q[t][j] = j < t ? q[j][t] : -r[j][t] * r[t][j];
    }
  const auto kd = static_cast<double>(k);
  std::vector<double> p(k, 1.0 / kd), qp(k);
  const double eps = 0.005 / kd;
  const int max_iter = std::max(100, static_cast<int>(k));
  for (int iter = 0; iter < max_iter; ++iter) {
    // Recompute Qp and p'Qp each sweep (for accuracy), then test the optimality conditions.
    double pqp = 0;
    for (std::size_t t = 0; t < k; ++t) {
      qp[t] = 0;
      for (std::size_t j = 0; j < k; ++j) qp[t] += q[t][j] * p[j];
      pqp += p[t] * qp[t];
    }
    double max_error = 0;
    for (std::size_t t = 0; t < k; ++t) max_error = std::max(max_error, std::abs(qp[t] - pqp));
    if (max_error < eps) break;
    for (std::size_t t = 0; t < k; ++t) {
      // Coordinate step on p_t, then renormalise p (and Qp, p'Qp with it).
      const double diff = (-qp[t] + pqp) / q[t][t];
      p[t] += diff;
      pqp = (pqp + diff * (diff * q[t][t] + 2 * qp[t])) / (1 + diff) / (1 + diff);
      for (std::size_t j = 0; j < k; ++j) {
        qp[j] = (qp[j] + diff * q[t][j]) / (1 + diff);
        p[j] /= (1 + diff);
      }
    }
  }
  return p;
}

}  // namespace fbosim::datasets

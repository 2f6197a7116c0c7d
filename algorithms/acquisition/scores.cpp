#include "algorithms/acquisition/scores.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fbosim::acq {

namespace {
void check_var(double var, const char* who) {
  // A negative variance is a caller bug (clamp before scoring); NaN would silently lose.
  if (!(var >= 0.0))
    throw std::invalid_argument(std::string(who) + ": variance must be >= 0, got " +
                                std::to_string(var));
}
void check_sizes(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, const char* who) {
  if (mean.size() != var.size())
    throw std::invalid_argument(std::string(who) + ": mean and variance sizes differ");
}
constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1 / sqrt(2 pi)
}  // namespace

ScoreGrad ucb(double mean, double var, double beta) {
  check_var(var, "ucb");
  if (!(beta >= 0.0))
    throw std::invalid_argument("ucb: beta must be >= 0, got " + std::to_string(beta));
  const double width = std::sqrt(beta * var);
  // d sqrt(beta var) / d var = beta / (2 sqrt(beta var)).
  return {mean + width, 1.0, width > 0.0 ? 0.5 * beta / width : 0.0};
}

Eigen::VectorXd ucb(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double beta) {
  check_sizes(mean, var, "ucb");
  Eigen::VectorXd out(mean.size());
  for (Eigen::Index j = 0; j < mean.size(); ++j) out[j] = ucb(mean[j], var[j], beta).value;
  return out;
}

ScoreGrad expected_improvement(double mean, double var, double best, double xi) {
  check_var(var, "expected_improvement");
  const double u = mean - best - xi;
  const double s = std::sqrt(var);
  if (s == 0.0) return {std::max(u, 0.0), u > 0.0 ? 1.0 : 0.0, 0.0};
  const double z = u / s;
  // Phi(z) via erfc keeps full relative accuracy in the lower tail, where EI is tiny.
  const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
  const double pdf = kInvSqrt2Pi * std::exp(-0.5 * z * z);
  return {u * cdf + s * pdf, cdf, pdf / (2.0 * s)};
}

Eigen::VectorXd expected_improvement(const Eigen::VectorXd& mean, const Eigen::VectorXd& var,
                                     double best, double xi) {
  check_sizes(mean, var, "expected_improvement");
  Eigen::VectorXd out(mean.size());
  for (Eigen::Index j = 0; j < mean.size(); ++j)
    out[j] = expected_improvement(mean[j], var[j], best, xi).value;
  return out;
}

}  // namespace fbosim::acq

#include "algorithms/server/canary_geometry.hpp"

#include <cmath>

namespace fbosim::server {

CanaryGeometry canary_geometry(const Eigen::MatrixXd& weights, int canary,
                               const std::vector<double>& stds, double bound, int features) {
  CanaryGeometry g;
  g.coef.resize(weights.rows());
  for (Eigen::Index i = 0; i < weights.rows(); ++i)
    g.coef[i] = weights(i, canary) /
                (stds[static_cast<std::size_t>(i)] * stds[static_cast<std::size_t>(i)]);
  g.coef /= g.coef.maxCoeff();
  g.direction = Eigen::VectorXd::Ones(features) / std::sqrt(static_cast<double>(features));
  g.message = bound * g.direction;
  g.opposite = -g.message;
  return g;
}

double canary_statistic(const Eigen::VectorXd& coef, const Eigen::VectorXd& direction,
                        const std::vector<Eigen::VectorXd>& omegas) {
  double s = 0;
  for (Eigen::Index j = 0; j < coef.size(); ++j)
    if (coef[j] > 0) s += coef[j] * omegas[static_cast<std::size_t>(j)].dot(direction);
  return s;
}

}  // namespace fbosim::server

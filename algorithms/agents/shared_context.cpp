#include "algorithms/agents/shared_context.hpp"

#include <cmath>
#include <limits>

#include "algorithms/rff/grid_features.hpp"

namespace fbosim::agents {

namespace {
// The grid row of x: exact for the equally spaced 1-D grid, nearest point otherwise.
Eigen::Index grid_row(const Eigen::MatrixXd& grid, const Eigen::VectorXd& x) {
  const Eigen::Index G = grid.rows();
  if (grid.cols() == 1 && G > 1 && grid(0, 0) == 0.0 && grid(G - 1, 0) == 1.0) {
    const auto j = static_cast<Eigen::Index>(std::lround(x[0] * static_cast<double>(G - 1)));
    if (j >= 0 && j < G && grid(j, 0) == x[0]) return j;
  }
  Eigen::Index best = 0;
  (grid.rowwise() - x.transpose()).rowwise().squaredNorm().minCoeff(&best);
  return best;
}
}  // namespace

SharedContext::SharedContext(core::Domain d, rff::RandomFeatures f, de::Partition p)
    : domain(std::move(d)), features(std::move(f)), partition(std::move(p)) {
  for (int i = 0; i < partition.count(); ++i) region_boxes.push_back(partition.box(i));
  if (!domain.is_grid()) return;
  grid_features = rff::grid_features(features, domain.grid);
  region_points.resize(partition.count());
  for (Eigen::Index j = 0; j < domain.grid.rows(); ++j) {
    const Eigen::VectorXd x = domain.grid.row(j).transpose();
    region_points[partition.region_of(x)].push_back(static_cast<int>(j));
  }
}

}  // namespace fbosim::agents

namespace fbosim::agents {

Eigen::VectorXd SharedContext::feature(const Eigen::VectorXd& x) const {
  if (domain.is_grid()) return grid_features.row(grid_row(domain.grid, x)).transpose();
  return features.feature(x);
}

Eigen::VectorXd SharedContext::argmax(const Eigen::VectorXd& omega,
                                      const acq::BoxMaximiser& maximiser, core::RngStream& rng,
                                      const acq::AcquisitionMethod& how) const {
  if (domain.is_grid()) {
    Eigen::Index best = 0;
    (grid_features * omega).maxCoeff(&best);
    return domain.grid.row(best).transpose();
  }
  return acq::maximise_sample(how, maximiser, features, omega, core::Box::unit(domain.dim), rng).x;
}

}  // namespace fbosim::agents

namespace fbosim::agents {

Eigen::Index SharedContext::region_argmax(const std::vector<Eigen::VectorXd>& omegas) const {
  std::lock_guard lock(memo_mutex_);
  if (omegas.size() == memo_omegas_.size() &&
      std::equal(omegas.begin(), omegas.end(), memo_omegas_.begin(),
                 [](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
                   return a.size() == b.size() && a == b;
                 }))
    return memo_row_;
  double best_value = -std::numeric_limits<double>::infinity();
  Eigen::Index best = -1;
  for (int i = 0; i < partition.count(); ++i)
    for (int j : region_points[static_cast<std::size_t>(i)]) {
      const double v = grid_features.row(j).dot(omegas[static_cast<std::size_t>(i)]);
      if (v > best_value) {
        best_value = v;
        best = j;
      }
    }
  memo_omegas_ = omegas;
  memo_row_ = best;
  return best;
}

}  // namespace fbosim::agents

namespace fbosim::agents {

rff::RandomFeatures shared_features(int dim, int M, double lengthscale,
                                    const std::vector<double>& lengthscales,
                                    const gp::KernelChoice& kernel, core::RngStream& rng) {
  if (!lengthscales.empty())
    return rff::RandomFeatures::draw(
        dim, M, kernel.family,
        Eigen::Map<const Eigen::VectorXd>(lengthscales.data(),
                                          static_cast<Eigen::Index>(lengthscales.size())),
        1.0, rng);
  if (kernel.family == gp::KernelFamily::se)
    return rff::RandomFeatures::draw(dim, M, lengthscale, 1.0, rng);
  return rff::RandomFeatures::draw(dim, M, kernel.family, Eigen::VectorXd::Constant(1, lengthscale),
                                   1.0, rng);
}

}  // namespace fbosim::agents

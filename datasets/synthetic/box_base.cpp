#include "datasets/synthetic/box_base.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "datasets/synthetic/projected_ascent.hpp"

namespace fbosim::datasets {

namespace {
// Indices of v sorted by decreasing value (only the first `count` need be ordered).
std::vector<Eigen::Index> best_first(const Eigen::VectorXd& v, Eigen::Index count) {
  std::vector<Eigen::Index> idx(static_cast<std::size_t>(v.size()));
  std::iota(idx.begin(), idx.end(), Eigen::Index{0});
  count = std::min(count, v.size());
  std::partial_sort(idx.begin(), idx.begin() + count, idx.end(),
                    [&](Eigen::Index a, Eigen::Index b) { return v[a] > v[b]; });
  idx.resize(static_cast<std::size_t>(count));
  return idx;
}

// Best value of sign * f from the four best sampled points, refined.
double refined_extreme(const RffFunction& f, const Eigen::MatrixXd& X, const Eigen::VectorXd& v,
                       double sign, double lengthscale) {
  const Eigen::VectorXd sv = sign * v;
  double best = sv.maxCoeff();
  const ValueAndGradient fn = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    const double y = f.value_and_gradient(x, g);
    g *= sign;
    return sign * y;
  };
  for (const Eigen::Index i : best_first(sv, 4)) {
    Eigen::VectorXd x = X.row(i).transpose();
    best = std::max(best, projected_ascent(fn, x, 0.25 * lengthscale));
  }
  return sign * best;
}
}  // namespace

std::shared_ptr<const BoxBase> BoxBase::draw(int dim, double lengthscale, core::RngStream& rng) {
  auto base = std::make_shared<BoxBase>();
  base->f = RffFunction::draw(dim, kFeatures, lengthscale, rng);
  base->lengthscale = lengthscale;
  // More points in higher dimensions, capped so that drawing stays well under a second.
  const double scaled = 2500.0 * std::exp2(static_cast<double>(std::min(dim, 62)));
  const auto points = static_cast<Eigen::Index>(std::clamp(scaled, 1e4, 65536.0));
  const Eigen::MatrixXd X = rng.uniform_matrix(points, dim);
  const Eigen::VectorXd v = base->f.values(X);
  base->hi = refined_extreme(base->f, X, v, 1.0, lengthscale);
  base->lo = refined_extreme(base->f, X, v, -1.0, lengthscale);
  const std::vector<Eigen::Index> top = best_first(v, kCandidates);
  base->candidates.resize(static_cast<Eigen::Index>(top.size()), dim);
  base->candidate_values.resize(static_cast<Eigen::Index>(top.size()));
  for (std::size_t k = 0; k < top.size(); ++k) {
    base->candidates.row(static_cast<Eigen::Index>(k)) = X.row(top[k]);
    base->candidate_values[static_cast<Eigen::Index>(k)] =
        (v[top[k]] - base->lo) * base->inv_range();
  }
  return base;
}

}  // namespace fbosim::datasets

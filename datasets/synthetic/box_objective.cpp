#include "datasets/synthetic/box_objective.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "datasets/synthetic/projected_ascent.hpp"

namespace fbosim::datasets {

BoxObjective::BoxObjective(std::shared_ptr<const BoxBase> base, double perturbation,
                           double noise_var)
    : base_(std::move(base)), amplitude_(perturbation), noise_sd_(std::sqrt(noise_var)) {
  domain_.dim = base_->dim();
}

std::shared_ptr<const BoxObjective> BoxObjective::draw(std::shared_ptr<const BoxBase> base,
                                                       double perturbation, double noise_var,
                                                       core::RngStream& rng) {
  if (!base || !(perturbation >= 0) || !(noise_var >= 0))
    throw std::invalid_argument("BoxObjective: needs a base, perturbation >= 0, noise_var >= 0");
  std::shared_ptr<BoxObjective> obj(new BoxObjective(std::move(base), perturbation, noise_var));
  const BoxBase& b = *obj->base_;
  if (perturbation == 0) {
    obj->optimum_ = 1.0;  // fhat's estimated max, by construction of the normalisation
    return obj;
  }
  obj->g_ = RffFunction::draw(b.dim(), BoxBase::kFeatures, b.lengthscale, rng);
  // Search points: the base's best (where f_n's max lies when the perturbation is small) and
  // fresh uniform ones (in case it is not).
  const Eigen::MatrixXd extra = rng.uniform_matrix(256, b.dim());
  Eigen::MatrixXd X(b.candidates.rows() + extra.rows(), b.dim());
  X << b.candidates, extra;
  Eigen::VectorXd v(X.rows());
  v << b.candidate_values, (b.f.values(extra).array() - b.lo) * b.inv_range();
  v += perturbation * obj->g_.values(X);

  std::vector<Eigen::Index> idx(static_cast<std::size_t>(v.size()));
  std::iota(idx.begin(), idx.end(), Eigen::Index{0});
  std::partial_sort(idx.begin(), idx.begin() + 4, idx.end(),
                    [&](Eigen::Index i, Eigen::Index j) { return v[i] > v[j]; });
  const ValueAndGradient fn = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
    return obj->value_and_gradient(x, g);
  };
  double best = v.maxCoeff();
  for (int k = 0; k < 4; ++k) {
    Eigen::VectorXd x = X.row(idx[static_cast<std::size_t>(k)]).transpose();
    best = std::max(best, projected_ascent(fn, x, 0.25 * b.lengthscale));
  }
  obj->optimum_ = best;
  return obj;
}

double BoxObjective::evaluate(const Eigen::VectorXd& x) const {
  if (x.size() != domain_.dim) throw std::invalid_argument("BoxObjective: x has the wrong size");
  const double f = base_->value(x);
  return amplitude_ > 0 ? f + amplitude_ * g_.value(x) : f;
}

double BoxObjective::observe(const Eigen::VectorXd& x, core::RngStream& rng) const {
  return evaluate(x) + noise_sd_ * rng.normal();
}

double BoxObjective::value_and_gradient(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const {
  double f = (base_->f.value_and_gradient(x, grad) - base_->lo) * base_->inv_range();
  grad *= base_->inv_range();
  if (amplitude_ > 0) {
    Eigen::VectorXd gg;
    f += amplitude_ * g_.value_and_gradient(x, gg);
    grad += amplitude_ * gg;
  }
  return f;
}

}  // namespace fbosim::datasets

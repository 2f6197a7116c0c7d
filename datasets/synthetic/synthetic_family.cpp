#include "datasets/synthetic/synthetic_family.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "datasets/synthetic/box_base.hpp"
#include "datasets/synthetic/box_objective.hpp"
#include "datasets/synthetic/grid2d_objective.hpp"
#include "datasets/synthetic/grid_gp_sampler.hpp"
#include "datasets/synthetic/grid_objective.hpp"
#include "core/cancellation.hpp"

namespace fbosim::datasets {

namespace {

using Objectives = std::vector<std::shared_ptr<const Objective>>;

template <typename T>
void require(bool ok, const char* field, const char* what, const T& value) {
  if (ok) return;
  std::ostringstream msg;
  msg << "synthetic." << field << " must be " << what << ", got " << value;
  throw std::invalid_argument(msg.str());
}

void validate(const SyntheticSpec& s) {
  require(s.family == "gp_grid" || s.family == "heterogeneous" || s.family == "gp_box" ||
              s.family == "gp_grid2d",
          "family", "gp_grid, heterogeneous, gp_box or gp_grid2d", "'" + s.family + "'");
  require(s.grid_side >= 2 && s.grid_side <= 1000, "grid_side", "in [2, 1000]", s.grid_side);
  require(s.input_norm >= 0 && std::isfinite(s.input_norm), "input_norm", ">= 0", s.input_norm);
  // The exact sampler stores and factorises an n x n matrix, so n is bounded.
  require(s.grid_points >= 2 && s.grid_points <= 10000, "grid_points", "in [2, 10000]",
          s.grid_points);
  require(s.lengthscale > 0 && std::isfinite(s.lengthscale), "lengthscale", "> 0", s.lengthscale);
  require(s.perturbation >= 0 && std::isfinite(s.perturbation), "perturbation", ">= 0",
          s.perturbation);
  require(s.noise_var >= 0 && std::isfinite(s.noise_var), "noise_var", ">= 0", s.noise_var);
  require(s.alpha >= 0 && s.alpha <= 1, "alpha", "in [0, 1]", s.alpha);
  require(s.dim >= 1, "dim", ">= 1", s.dim);
  require(
      s.normalise == "both" || s.normalise == "base" || s.normalise == "g" || s.normalise == "none",
      "normalise", "both, base, g or none", "'" + s.normalise + "'");
}

std::shared_ptr<const core::Domain> grid_domain(const GridGpSampler& sampler) {
  auto d = std::make_shared<core::Domain>();
  d->dim = 1;
  d->grid = sampler.grid();
  return d;
}

// The grid families: one normalised GP sample f from "objective.base", then agent n's values
// agent_values(f, rng, n) from its own stream "objective.agent"/n.
template <typename AgentValues>
Objectives grid_family(const GridGpSampler& sampler,
                       const std::shared_ptr<const core::Domain>& domain, double noise_var,
                       int agents, const core::RngFactory& rf, AgentValues agent_values,
                       bool normalise_base = true) {
  core::RngStream base_rng = rf.stream("objective.base");
  Eigen::VectorXd f = sampler.sample(base_rng);
  if (normalise_base) f = min_max_normalise(f);
  Objectives out;
  for (int n = 0; n < agents; ++n) {
    core::throw_if_cancelled();  // an agent's values cost O(n^2) on a large grid
    core::RngStream rng = rf.stream("objective.agent", static_cast<std::uint64_t>(n));
    out.push_back(std::make_shared<GridObjective>(domain, agent_values(f, rng, n), noise_var));
  }
  return out;
}

Objectives gp_box(const SyntheticSpec& s, int agents, const core::RngFactory& rf) {
  core::RngStream base_rng = rf.stream("objective.base");
  const auto base = BoxBase::draw(s.dim, s.lengthscale, base_rng);
  Objectives out;
  for (int n = 0; n < agents; ++n) {
    core::throw_if_cancelled();
    core::RngStream rng = rf.stream("objective.agent", static_cast<std::uint64_t>(n));
    out.push_back(
        BoxObjective::draw(base, n < s.unperturbed ? 0.0 : s.perturbation, s.noise_var, rng));
  }
  return out;
}

// PO-GP-UCB's synthetic dataset: one f on the 2-D grid, seen by every agent.
Objectives gp_grid2d(const SyntheticSpec& s, int agents, const core::RngFactory& rf) {
  auto domain = std::make_shared<core::Domain>();
  domain->dim = 2;
  domain->grid = unit_square_grid(s.grid_side);
  const core::RngFactory streams = s.same_function ? core::RngFactory(rf.seed(), 0) : rf;
  core::RngStream base_rng = streams.stream("objective.base");
  const Eigen::VectorXd f = sample_grid2d(s.grid_side, s.lengthscale, s.input_norm, base_rng);
  Objectives out;
  const std::shared_ptr<const core::Domain> shared = domain;
  const auto objective = std::make_shared<Grid2dObjective>(shared, s.grid_side, f, s.noise_var);
  for (int n = 0; n < agents; ++n) out.push_back(objective);
  return out;
}

}  // namespace

SyntheticFamily::SyntheticFamily(SyntheticSpec spec) : spec_(std::move(spec)) {
  validate(spec_);
  if (spec_.family == "gp_box" || spec_.family == "gp_grid2d") return;
  sampler_ = std::make_shared<const GridGpSampler>(spec_.grid_points, spec_.lengthscale);
  domain_ = grid_domain(*sampler_);
}

std::vector<std::shared_ptr<const Objective>> SyntheticFamily::make(
    int agents, const core::RngFactory& rf) const {
  if (agents < 1)
    throw std::invalid_argument("make_synthetic: agents must be >= 1, got " +
                                std::to_string(agents));
  const SyntheticSpec& s = spec_;
  if (s.family == "gp_box") return gp_box(s, agents, rf);
  if (s.family == "gp_grid2d") return gp_grid2d(s, agents, rf);
  if (s.family == "gp_grid") {
    // App. B.1.1: agent n adds d_{n,j} = +-perturbation, each sign with probability 1/2,
    // independently per grid point (one bernoulli per point, in grid order).
    return grid_family(*sampler_, domain_, s.noise_var, agents, rf,
                       [&](const Eigen::VectorXd& f, core::RngStream& rng, int n) {
                         Eigen::VectorXd fn = f;
                         if (n < s.unperturbed) return fn;
                         for (Eigen::Index j = 0; j < fn.size(); ++j)
                           fn[j] += rng.bernoulli(0.5) ? s.perturbation : -s.perturbation;
                         return fn;
                       });
  }
  // App. B.1.2 (Fig. 7): f_n = alpha g_n + (1 - alpha) f_base. The paper draws f_base with "the
  // detailed setups such as the domain and the SE kernel" of App. B.1.1, whose function is
  // normalised to [0,1], and says nothing of g_n's scale. By default both are normalised, so f_n
  // stays in [0,1] and alpha is the share of each; `normalise` keeps either (or both) the raw
  // GP sample of variance 1 (a range of about 4), which shifts that share. It does not add the
  // +-d of B.1.1, so spec.perturbation is unused here.
  const bool base = s.normalise == "both" || s.normalise == "base";
  const bool own = s.normalise == "both" || s.normalise == "g";
  return grid_family(
      *sampler_, domain_, s.noise_var, agents, rf,
      [&](const Eigen::VectorXd& f, core::RngStream& rng, int) {
        Eigen::VectorXd g = sampler_->sample(rng);
        if (own) g = min_max_normalise(g);
        return Eigen::VectorXd(s.alpha * g + (1 - s.alpha) * f);
      },
      base);
}

std::vector<std::shared_ptr<const Objective>> make_synthetic(const SyntheticSpec& spec, int agents,
                                                             const core::RngFactory& rng) {
  return SyntheticFamily(spec).make(agents, rng);
}

}  // namespace fbosim::datasets

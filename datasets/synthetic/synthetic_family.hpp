#pragma once
// The synthetic objective families of DP-FTS-DE (Sec. 5.1, App. B.1):
//   gp_grid:       f ~ GP(0, SE(l)) on a 1-D grid of equally spaced points on [0,1], min-max
//                  normalised to [0,1]; agent n sees f_n(x) = f(x) + d_{n,x}, d = +-perturbation
//                  with probability 1/2 independently per grid point (Fig. 2, 4-6, 12a).
//   heterogeneous: f_n = alpha g_n + (1 - alpha) f_base with g_n independent GP samples on the
//                  same grid (Fig. 7), both normalised to [0,1] by default (`normalise`
//                  says which); no +-d (perturbation unused).
//   gp_box:        a smooth GP-like function on the continuous box [0,1]^dim (benchmarks and
//                  continuous-domain studies), perturbed per agent.
//   gp_grid2d:     PO-GP-UCB's synthetic dataset (Kharkovskii et al. 2020, sec. 4): f ~ GP(0,
//                  SE(l), variance 1) on a grid_side x grid_side grid of the unit square, l in
//                  the units of the grid centred and scaled to maximal norm input_norm; every
//                  agent sees f itself (Grid2dObjective).
// Observations add N(0, noise_var) noise.
#include <memory>
#include <string>
#include <vector>

#include "datasets/objective.hpp"
#include "datasets/objective_family.hpp"
#include "core/rng.hpp"
#include "schema/fwd.hpp"

namespace fbosim::datasets {

struct ObjectiveFamilyEntry;

struct SyntheticSpec {
  std::string family = "gp_grid";  ///< gp_grid | heterogeneous | gp_box | gp_grid2d
  int grid_points = 1000;          ///< gp_grid, heterogeneous
  double lengthscale = 0.03;       ///< SE length scale of the sampled functions
  double perturbation = 0.02;      ///< gp_grid: the +-d of each agent; gp_box: its amplitude
  double noise_var = 0.01;         ///< observation noise variance
  double alpha = 0.7;              ///< heterogeneous: weight of the agent's own g_n
  /// heterogeneous: which of f_base and the g_n are min-max normalised to [0,1] before mixing:
  /// both | base | g | none (the others stay raw GP samples of variance 1).
  std::string normalise = "both";
  int dim = 2;  ///< gp_box: input dimension
  /// gp_grid, gp_box: the first `unperturbed` agents see the base function f itself (FTS
  /// sec. 5.1: the target's f; the other agents' g_n = f + perturbation).
  int unperturbed = 0;
  int grid_side = 100;     ///< gp_grid2d: points per axis
  double input_norm = 25;  ///< gp_grid2d: the maximal norm l is measured at (0: unit square)
  /// gp_grid2d: one function for every run (drawn from the streams of run 0) instead of one per
  /// run.
  bool same_function = false;
};

class GridGpSampler;

/// The family of one experiment. The grid families' sampler (the Cholesky factor of the G x G
/// kernel matrix, O(G^3)) and domain are built once, in the constructor, and shared by every
/// run, whose own set-up is then one O(G^2) triangular product per GP sample.
class SyntheticFamily final : public ObjectiveFamily {
 public:
  /// Validates spec (throws std::invalid_argument naming the field and value).
  explicit SyntheticFamily(SyntheticSpec spec);
  /// One objective per agent. All draws come from rng.stream("objective.base") and
  /// rng.stream("objective.agent", n), so they do not depend on any other setting.
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;
  /// gp_grid2d with same_function: one function for every run (run 0's streams).
  bool varies_by_run() const override {
    return !(spec_.family == "gp_grid2d" && spec_.same_function);
  }

 private:
  SyntheticSpec spec_;
  std::shared_ptr<const GridGpSampler> sampler_;  // grid families only
  std::shared_ptr<const core::Domain> domain_;    // grid families only
};

/// Every objective.* key of the synthetic families; each family reads some of them
/// (Group::only), in its own order.
const schema::Group<SyntheticSpec>& synthetic_keys();
/// Registers gp_grid, heterogeneous, gp_box and gp_grid2d, in that order.
void register_synthetic_families(schema::Registry<ObjectiveFamilyEntry>& registry);

/// SyntheticFamily(spec).make(agents, rng).
std::vector<std::shared_ptr<const Objective>> make_synthetic(const SyntheticSpec& spec, int agents,
                                                             const core::RngFactory& rng);

}  // namespace fbosim::datasets

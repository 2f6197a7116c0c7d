// The synthetic families' keys and registry entries.
#include "datasets/objective_family_entry.hpp"
#include "datasets/synthetic/synthetic_family.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

const schema::Group<SyntheticSpec>& synthetic_keys() {
  using S = SyntheticSpec;
  using schema::Range;
  static const auto g =
      schema::Group<S>{}
          .integer("objective.grid_points", &S::grid_points, Range::closed(2, 10000),
                   "grid size of the grid families (the exact GP sampler factorises an n x n "
                   "matrix)")
          .real("objective.lengthscale", &S::lengthscale, Range::above(0),
                "SE length scale of the sampled functions (`gp_grid2d`: in the units of the "
                "grid centred and scaled to maximal norm `objective.input_norm`)")
          .real("objective.perturbation", &S::perturbation, Range::at_least(0),
                "`gp_grid`: each agent's +-d per grid point; `gp_box`: standard deviation of "
                "the independent GP sample each agent adds; unused by `heterogeneous`")
          .real("objective.noise_var", &S::noise_var, Range::at_least(0),
                "observation noise variance")
          .real("objective.alpha", &S::alpha, Range::closed(0, 1),
                "`heterogeneous`: f_n = alpha g_n + (1 - alpha) f_base")
          .integer("objective.dim", &S::dim, Range::closed(1, 1000), "`gp_box`: input dimension")
          .choice("objective.normalise", &S::normalise,
                  std::vector<std::string>{"both", "base", "g", "none"},
                  "which of f_base and the agents' g_n are min-max normalised to [0, 1] before "
                  "mixing (App. B.1.2 gives g_n's scale nowhere); the others stay raw GP samples "
                  "of variance 1, which changes the share alpha stands for (docs/CLAIMS.md, Fig. "
                  "7)")
          .integer("objective.grid_side", &S::grid_side, Range::closed(2, 1000),
                   "points per axis of the k x k grid on the unit square (PO-GP-UCB sec. 4: 100)")
          .real("objective.input_norm", &S::input_norm, Range::at_least(0),
                "the maximal norm of the centred grid at which `objective.lengthscale` is "
                "measured (0: the unit square itself) [reconstructed: the paper does not say in "
                "which units l = 1.25 is]")
          .boolean("objective.same_function", &S::same_function,
                   "true: one function for every run (drawn from run 0's streams; runs differ in "
                   "their initial point and projection)");
  return g;
}

namespace {

SyntheticSpec prototype(const char* family) {
  SyntheticSpec s;
  s.family = family;
  return s;
}

std::unique_ptr<ObjectiveFamily> make(const SyntheticSpec& s, const std::string&) {
  return std::make_unique<SyntheticFamily>(s);
}

void unperturbed(schema::Options& o, int agents) { o.as<SyntheticSpec>().unperturbed = agents; }

ObjectiveShape grid_1d(const SyntheticSpec& s) {
  return {core::DomainKind::grid, 1, s.grid_points, "objective.grid_points"};
}

}  // namespace

void register_synthetic_families(schema::Registry<ObjectiveFamilyEntry>& registry) {
  // The keys each family reads (a grid family reads objective.dim and a box objective.grid_points
  // without using them, as before the registry: one config serves several families).
  const auto common = [] {
    return synthetic_keys().only({"objective.grid_points", "objective.lengthscale",
                                  "objective.perturbation", "objective.noise_var",
                                  "objective.alpha", "objective.dim"});
  };
  static const schema::Group<SyntheticSpec> grid = common();
  static const schema::Group<SyntheticSpec> heterogeneous =
      common().include(synthetic_keys().only({"objective.normalise"}));
  static const schema::Group<SyntheticSpec> grid2d =
      synthetic_keys().only({"objective.grid_side", "objective.lengthscale", "objective.input_norm",
                             "objective.noise_var", "objective.same_function"});

  ObjectiveFamilyEntry e = make_family_entry<SyntheticSpec>(
      "gp_grid",
      "a GP sample on a 1-D grid of [0,1], each agent's +-d perturbation of it (DP-FTS-DE Fig. "
      "2, 4-6, 12a)",
      grid, prototype("gp_grid"), make, grid_1d);
  e.optimum_known = true;
  e.unperturbed = unperturbed;
  registry.add(std::move(e));

  e = make_family_entry<SyntheticSpec>(
      "heterogeneous",
      "f_n = alpha g_n + (1 - alpha) f_base, GP samples on a 1-D grid (DP-FTS-DE Fig. 7)",
      heterogeneous, prototype("heterogeneous"), make, grid_1d);
  e.optimum_known = true;
  e.unperturbed = unperturbed;
  registry.add(std::move(e));

  e = make_family_entry<SyntheticSpec>(
      "gp_box", "a smooth GP-like function on the box [0,1]^dim, perturbed per agent", grid,
      prototype("gp_box"), make, [](const SyntheticSpec& s) {
        return ObjectiveShape{core::DomainKind::box, s.dim, 0, "objective.dim"};
      });
  e.optimum_known = true;
  e.unperturbed = unperturbed;
  registry.add(std::move(e));

  e = make_family_entry<SyntheticSpec>(
      "gp_grid2d",
      "PO-GP-UCB's synthetic dataset: a GP sample on a k x k grid of the unit square "
      "(Kharkovskii et al. sec. 4)",
      grid2d, prototype("gp_grid2d"), make, [](const SyntheticSpec& s) {
        return ObjectiveShape{core::DomainKind::grid, 2,
                              static_cast<long long>(s.grid_side) * s.grid_side,
                              "objective.grid_side"};
      });
  // The paper's setting (sec. 4): l = 1.25 at maximal norm 25, sigma_n^2 = 1e-5.
  e.presets = {{"objective.lengthscale", 1.25}, {"objective.noise_var", 1e-5}};
  e.optimum_known = true;
  e.unperturbed = unperturbed;
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets

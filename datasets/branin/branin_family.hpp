#pragma once
// The Branin-Hoo benchmark (Dixon & Szego 1978; PO-GP-UCB, Kharkovskii et al. 2020, App. A),
// maximised as f = -branin: closed form, no data, the same function for every agent.
//   branin(u, v) = a (v - b u^2 + c u - r)^2 + s (1 - t) cos(u) + s,
//   a = 1, b = 5.1 / (4 pi^2), c = 5 / pi, r = 6, s = 10, t = 1 / (8 pi),
// on u in [-5, 10], v in [0, 15] (the unit square mapped linearly); its minimum 0.397887... is
// taken at (-pi, 12.275), (pi, 2.275) and (9.42478, 2.475).
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "datasets/objective_family.hpp"
#include "datasets/objective_family_entry.hpp"

namespace fbosim::datasets::branin {

struct BraninSpec {
  double noise_var = 0.0;  ///< observation noise variance
  /// 0: the continuous unit square; k >= 2: the k x k grid on it (a finite domain).
  int grid_side = 0;
};

/// branin(u, v) on its own ranges (the function to be minimised).
double branin(double u, double v);
/// -branin at x in [0,1]^2 (u = -5 + 15 x0, v = 15 x1).
double value(const Eigen::Vector2d& x);
/// max of value(): -0.39788735772973816 (= -branin at its minimisers).
double optimum();

class BraninFamily final : public ObjectiveFamily {
 public:
  explicit BraninFamily(BraninSpec spec) : spec_(spec) {}
  bool varies_by_run() const override { return false; }
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  BraninSpec spec_;
};

const schema::Group<BraninSpec>& branin_keys();
void register_branin_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets::branin

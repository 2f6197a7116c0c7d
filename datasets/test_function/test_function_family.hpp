#pragma once
// The `test_function` family (issue 29): the standard BO test functions of test_function.hpp,
// maximised as f_n(x) = -a_n g((lower + (upper - lower) o (x - delta_n))) on the unit box, where
// g is the function on its own domain [lower, upper]. Every agent sees g itself (delta_n = 0,
// a_n = 1) unless `objective.shift` or `objective.scale` make each agent a variant:
//   delta_n,j ~ U([-shift, shift] n [-u*_j, 1 - u*_j])  (u*: a minimiser in unit coordinates),
//   a_n = exp(U[-log scale, log scale])                 (log-uniform on [1/scale, scale]),
// drawn per run from the stream ("objective.test_function", n). The cut keeps u* + delta_n in
// the box, and g's minimum over the inputs a shift reaches (its domain widened by its width on
// each side: shift <= 1) equals its minimum on its domain, so agent n's maximum is exactly
// -a_n g* (its regret is against its own optimum).
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "datasets/objective_family.hpp"
#include "datasets/objective_family_entry.hpp"
#include "datasets/test_function/test_function.hpp"

namespace fbosim::datasets::test_function {

struct TestFunctionSpec {
  /// objective.function, a name of functions() (a default of any dimension, so that
  /// objective.function_dim's default is its own).
  std::string function = "ackley";
  /// objective.function_dim (the functions of any dimension; BoTorch's default 2).
  int dim = 2;
  double noise_var = 0.0;  ///< observation noise variance
  double shift = 0.0;      ///< objective.shift: half-width of delta_n's box, unit coordinates
  double scale = 1.0;      ///< objective.scale: a_n in [1/scale, scale]
  /// The first `unperturbed` agents see g itself (FTS's target agent; set by the algorithm's
  /// trait, not a key).
  int unperturbed = 0;

  /// The function of its table (test_function.hpp).
  const TestFunction& definition() const { return find_function(function); }
  /// The input dimension d: the function's own, else `dim`.
  int dimension() const { return definition().dimension(dim); }
  /// Whether the agents differ (shift > 0 or scale > 1).
  bool heterogeneous() const { return shift > 0 || scale > 1; }
};

/// One agent's variant: its shift delta (d-vector, unit coordinates) and its scale a > 0.
struct Variant {
  Eigen::VectorXd delta;
  double scale = 1.0;
};

/// Agent n's variant of one run, drawn from rng.stream("objective.test_function", n).
Variant draw_variant(const TestFunctionSpec& spec, int agent, const core::RngFactory& rng);

/// f(x) = -a g(lower + (upper - lower) o (x - delta)) for x in [0,1]^d.
double value(const TestFunctionSpec& spec, const Variant& v, const Eigen::VectorXd& x);
/// max_x f on [0,1]^d: -a g*.
double optimum(const TestFunctionSpec& spec, const Variant& v);

class TestFunctionFamily final : public ObjectiveFamily {
 public:
  explicit TestFunctionFamily(TestFunctionSpec spec) : spec_(spec) {}
  bool varies_by_run() const override { return spec_.heterogeneous(); }
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  TestFunctionSpec spec_;
};

const schema::Group<TestFunctionSpec>& test_function_keys();
void register_test_function_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets::test_function

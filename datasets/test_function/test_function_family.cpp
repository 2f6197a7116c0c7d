#include "datasets/test_function/test_function_family.hpp"

#include <cmath>
#include <string>

#include "sim/schema/group.hpp"

namespace fbosim::datasets::test_function {

int TestFunctionSpec::dimension() const {
  const int fixed = fixed_dimension(function);
  return fixed > 0 ? fixed : dim;
}

Variant draw_variant(const TestFunctionSpec& spec, int agent, const core::RngFactory& rng) {
  const int d = spec.dimension();
  Variant v{Eigen::VectorXd::Zero(d), 1.0};
  if (!spec.heterogeneous() || agent < spec.unperturbed) return v;
  core::RngStream s = rng.stream("objective.test_function", static_cast<std::uint64_t>(agent));
  const Domain box = domain(spec.function, d);
  const Eigen::VectorXd u =
      ((minimiser(spec.function, d) - box.lower).array() / (box.upper - box.lower).array())
          .matrix();
  // Uniform on [-shift, shift] cut to [-u*_j, 1 - u*_j]: u* + delta stays in the unit box.
  for (int j = 0; j < d; ++j)
    v.delta[j] = s.uniform(std::max(-spec.shift, -u[j]), std::min(spec.shift, 1 - u[j]));
  const double log_scale = std::log(spec.scale);
  v.scale = std::exp(s.uniform(-log_scale, log_scale));
  return v;
}

double value(const TestFunctionSpec& spec, const Variant& v, const Eigen::VectorXd& x) {
  const Domain box = domain(spec.function, spec.dimension());
  const Eigen::VectorXd z =
      box.lower + ((box.upper - box.lower).array() * (x - v.delta).array()).matrix();
  return -v.scale * test_function::value(spec.function, z);
}

double optimum(const TestFunctionSpec& spec, const Variant& v) {
  return -v.scale * minimum(spec.function);
}

namespace {

class TestFunctionObjective final : public Objective {
 public:
  TestFunctionObjective(const TestFunctionSpec& spec, Variant variant)
      : spec_(spec), variant_(std::move(variant)), noise_sd_(std::sqrt(spec.noise_var)) {
    domain_.dim = spec.dimension();
  }
  const core::Domain& domain() const override { return domain_; }
  double evaluate(const Eigen::VectorXd& x) const override {
    return test_function::value(spec_, variant_, x);
  }
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return evaluate(x) + (noise_sd_ > 0 ? noise_sd_ * rng.normal() : 0.0);
  }
  std::optional<double> optimum() const override { return test_function::optimum(spec_, variant_); }

 private:
  TestFunctionSpec spec_;
  Variant variant_;
  double noise_sd_;
  core::Domain domain_;
};

}  // namespace

std::vector<std::shared_ptr<const Objective>> TestFunctionFamily::make(
    int agents, const core::RngFactory& rng) const {
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(
        std::make_shared<const TestFunctionObjective>(spec_, draw_variant(spec_, n, rng)));
  return out;
}

const schema::Group<TestFunctionSpec>& test_function_keys() {
  using S = TestFunctionSpec;
  using schema::Range;
  static const auto g =
      schema::Group<S>{}
          .choice("objective.function", &S::function, kTestFunctionNames,
                  "`test_function`: the function, on its standard domain mapped from the unit "
                  "box and negated (fbosim maximises): branin [-5,10]x[0,15], hartmann3 [0,1]^3, "
                  "hartmann6 [0,1]^6, ackley [-32.768,32.768]^d, levy [-10,10]^d, rosenbrock "
                  "[-5,10]^d")
          // A function of fixed dimension makes it the default (shown in the resolved
          // config); another value given for one is an error rather than ignored.
          .then([](S& s) {
            if (fixed_dimension(s.function) > 0) s.dim = fixed_dimension(s.function);
          })
          .integer("objective.function_dim", &S::dim, Range::closed(1, 1000),
                   "`test_function`: the input dimension d of ackley, levy (>= 1) and rosenbrock "
                   "(>= 2); branin, hartmann3 and hartmann6 have their own 2, 3 and 6, which is "
                   "then the default")
          .check([](const S& s, schema::Problems& p) {
            const int fixed = fixed_dimension(s.function);
            const std::string name = kTestFunctionNames.name(s.function);
            if (fixed > 0 && s.dim != fixed)
              p.push_back({"objective.function_dim",
                           name + " has dimension " + std::to_string(fixed) + " only"});
            if (fixed == 0 && s.dim < min_dimension(s.function))
              p.push_back(
                  {"objective.function_dim",
                   "must be >= " + std::to_string(min_dimension(s.function)) + " for " + name});
          })
          .real("objective.noise_var", &S::noise_var, Range::at_least(0),
                "observation noise variance")
          .real("objective.shift", &S::shift, Range::closed(0, 1),
                "`test_function`: each agent's input shift, uniform on [-shift, shift] per "
                "coordinate of the unit box, cut so that the function's minimiser stays inside "
                "(0: no shift)")
          .real("objective.scale", &S::scale, Range::closed(1, 1000),
                "`test_function`: each agent's values multiplied by a factor log-uniform on "
                "[1/scale, scale] (1: none)");
  return g;
}

void register_test_function_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<TestFunctionSpec>(
      "test_function",
      "the standard BO test functions (branin, hartmann3, hartmann6, ackley, levy, rosenbrock; "
      "Surjanovic & Bingham, as in BoTorch), negated; each agent optionally a shifted, rescaled "
      "variant",
      test_function_keys(), TestFunctionSpec{},
      [](const TestFunctionSpec& s, const std::string&) {
        return std::make_unique<TestFunctionFamily>(s);
      },
      [](const TestFunctionSpec& s) {
        return ObjectiveShape{
            core::DomainKind::box, s.dimension(), 0,
            fixed_dimension(s.function) == 0 ? "objective.function_dim" : "objective.function"};
      });
  e.optimum_known = true;
  e.unperturbed = [](schema::Options& o, int agents) {
    o.as<TestFunctionSpec>().unperturbed = agents;
  };
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets::test_function

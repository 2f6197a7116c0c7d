#include "datasets/test_function/test_function_family.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schema/group.hpp"

namespace fbosim::datasets::test_function {

Variant draw_variant(const TestFunctionSpec& spec, int agent, const core::RngFactory& rng) {
  const int d = spec.dimension();
  Variant v{Eigen::VectorXd::Zero(d), 1.0};
  if (!spec.heterogeneous() || agent < spec.unperturbed) return v;
  core::RngStream s = rng.stream("objective.test_function", static_cast<std::uint64_t>(agent));
  const TestFunction& f = spec.definition();
  const Domain box = f.domain(d);
  const Eigen::VectorXd u =
      ((f.minimiser(d) - box.lower).array() / (box.upper - box.lower).array()).matrix();
  // Uniform on [-shift, shift] cut to [-u*_j, 1 - u*_j]: u* + delta stays in the unit box.
  for (int j = 0; j < d; ++j)
    v.delta[j] = s.uniform(std::max(-spec.shift, -u[j]), std::min(spec.shift, 1 - u[j]));
  const double log_scale = std::log(spec.scale);
  v.scale = std::exp(s.uniform(-log_scale, log_scale));
  return v;
}

namespace {

double value_of(const TestFunction& f, const Domain& box, const Variant& v,
                const Eigen::VectorXd& x) {
  const Eigen::VectorXd z =
      box.lower + ((box.upper - box.lower).array() * (x - v.delta).array()).matrix();
  return -v.scale * f.value(z);
}

}  // namespace

double value(const TestFunctionSpec& spec, const Variant& v, const Eigen::VectorXd& x) {
  const TestFunction& f = spec.definition();
  return value_of(f, f.domain(spec.dimension()), v, x);
}

double optimum(const TestFunctionSpec& spec, const Variant& v) {
  return -v.scale * spec.definition().optimum(spec.dimension());
}

namespace {

class TestFunctionObjective final : public Objective {
 public:
  TestFunctionObjective(const TestFunctionSpec& spec, Variant variant)
      : spec_(spec),
        function_(spec.definition()),
        box_(function_.domain(spec.dimension())),
        variant_(std::move(variant)),
        noise_sd_(std::sqrt(spec.noise_var)) {
    domain_.dim = spec.dimension();
  }
  const core::Domain& domain() const override { return domain_; }
  double evaluate(const Eigen::VectorXd& x) const override {
    return value_of(function_, box_, variant_, x);
  }
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return evaluate(x) + (noise_sd_ > 0 ? noise_sd_ * rng.normal() : 0.0);
  }
  std::optional<double> optimum() const override { return test_function::optimum(spec_, variant_); }

 private:
  TestFunctionSpec spec_;
  const TestFunction& function_;
  Domain box_;
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

namespace {

// objective.function's meaning: each function with its domain, from the table.
std::string function_meaning() {
  std::string list;
  for (const TestFunction& f : functions())
    list += (list.empty() ? "" : ", ") + std::string(f.name) + " " + std::string(f.domain_text);
  return "`test_function`: the function, on its standard domain mapped from the unit box and "
         "negated (fbosim maximises): " +
         list;
}

// objective.function_dim's meaning: the functions of any dimension and their bounds, and the
// fixed dimensions, from the table.
std::string dimension_meaning() {
  std::string any, fixed, fixed_dims;
  for (const TestFunction& f : functions()) {
    const std::string n(f.name);
    if (f.fixed_dim > 0) {
      fixed += (fixed.empty() ? "" : ", ") + n;
      fixed_dims += (fixed_dims.empty() ? "" : ", ") + std::to_string(f.fixed_dim);
    } else if (!f.dims.empty()) {
      std::string ds;
      for (int d : f.dims) ds += (ds.empty() ? "" : ", ") + std::to_string(d);
      any += (any.empty() ? "" : ", ") + n + " (" + ds + " only)";
    } else {
      any += (any.empty() ? "" : ", ") + n + " (>= " + std::to_string(f.min_dim) + ")";
    }
  }
  return "`test_function`: the input dimension d of " + any + "; " + fixed + " have their own " +
         fixed_dims + ", which is then the default";
}

}  // namespace

const schema::Group<TestFunctionSpec>& test_function_keys() {
  using S = TestFunctionSpec;
  using schema::Range;
  static const auto g =
      schema::Group<S>{}
          .choice("objective.function", &S::function, function_names(), function_meaning())
          // A function of fixed dimension makes it the default (shown in the resolved
          // config); another value given for one is an error rather than ignored.
          .then([](S& s) {
            if (s.definition().fixed_dim > 0) s.dim = s.definition().fixed_dim;
          })
          .integer("objective.function_dim", &S::dim, Range::closed(1, 1000), dimension_meaning())
          .check([](const S& s, schema::Problems& p) {
            const std::string why = s.definition().dimension_problem(s.dim);
            if (!why.empty()) p.push_back({"objective.function_dim", why});
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
      "the standard BO test functions (" + fmt::format("{}", fmt::join(function_names(), ", ")) +
          "; Surjanovic & Bingham, as in BoTorch), negated; each agent optionally a shifted, "
          "rescaled variant",
      test_function_keys(), TestFunctionSpec{},
      [](const TestFunctionSpec& s, const std::string&) {
        return std::make_unique<TestFunctionFamily>(s);
      },
      [](const TestFunctionSpec& s) {
        return ObjectiveShape{
            core::DomainKind::box, s.dimension(), 0,
            s.definition().fixed_dim == 0 ? "objective.function_dim" : "objective.function"};
      });
  e.optimum_known = true;
  e.unperturbed = [](schema::Options& o, int agents) {
    o.as<TestFunctionSpec>().unperturbed = agents;
  };
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets::test_function

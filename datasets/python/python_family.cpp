#include "datasets/python/python_family.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "datasets/query_at_objective.hpp"
#include "schema/group.hpp"

namespace fbosim::datasets::python {

namespace {

class PythonObjective final : public QueryAtObjective {
 public:
  PythonObjective(std::shared_ptr<const PythonCallable> fn, const PythonSpec& spec, int agent)
      : fn_(std::move(fn)), name_(spec.callable), agent_(agent) {
    domain_.dim = spec.dimension;
  }
  const core::Domain& domain() const override { return domain_; }
  Evaluation query_at(const Eigen::VectorXd& x, core::RngStream& rng,
                      const QueryContext& where) const override {
    const std::uint64_t seed = rng.engine()();
    try {
      const CallResult r = fn_->call(x, agent_, seed);
      return {r.y, r.f};
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(fmt::format(
          "objective.callable '{}': agent {}, run {}, round {}, x = [{}]: {}", name_, agent_,
          where.run, where.round, fmt::join(x.data(), x.data() + x.size(), ", "), e.what()));
    }
  }

 private:
  std::shared_ptr<const PythonCallable> fn_;
  std::string name_;
  int agent_;
  core::Domain domain_;
};

}  // namespace

PythonFamily::PythonFamily(const PythonSpec& spec) : spec_(spec) {
  try {
    fn_ = python_backend().load(spec.callable);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("objective.callable '{}': {}", spec.callable, e.what()));
  }
}

std::vector<std::shared_ptr<const Objective>> PythonFamily::make(int agents,
                                                                 const core::RngFactory&) const {
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<const PythonObjective>(fn_, spec_, n));
  return out;
}

const schema::Group<PythonSpec>& python_keys() {
  using S = PythonSpec;
  static const auto g =
      schema::Group<S>{}
          .text("objective.callable", &S::callable,
                "`python`: the function 'module:function' called as f(x, agent, seed) with x a "
                "list of floats in [0, 1], returning y or (y, f); the working directory is on "
                "sys.path")
          .note("none: required")
          .integer("objective.inputs", &S::dimension, schema::Range::closed(1, 1000),
                   "`command`, `python`: the input dimension d (queries lie in the unit box "
                   "[0,1]^d; the user's code maps them to its own ranges)")
          .check([](const S& s, schema::Problems& p) {
            if (s.callable.find(':') == std::string::npos)
              p.push_back({"objective.callable", "must be 'module:function'"});
          });
  return g;
}

std::string unreproducible_reason(const schema::Options& settings) {
  if (!settings.holds<PythonSpec>()) return "";
  const std::string& callable = settings.as<PythonSpec>().callable;
  if (callable.rfind(kRegisteredPrefix, 0) != 0) return "";
  return "the objective was a Python function passed to fbosim.run that cannot be imported "
         "again (a lambda, a closure or a function of __main__); config.resolved.yaml names it " +
         callable +
         ", which only that Python process knew: define it at the top level of an "
         "importable module to record module:function";
}

void register_python_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  registry.add(make_family_entry<PythonSpec>(
      "python",
      "a Python function module:function(x, agent, seed) evaluates each query (embedded "
      "interpreter); the domain is the box [0,1]^inputs",
      python_keys(), PythonSpec{},
      [](const PythonSpec& s, const std::string&) { return std::make_unique<PythonFamily>(s); },
      [](const PythonSpec& s) {
        return ObjectiveShape{core::DomainKind::box, s.dimension, 0, "objective.inputs"};
      }));
}

}  // namespace fbosim::datasets::python

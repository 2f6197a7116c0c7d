// The test_function family: the unit box mapped to each function's domain and negated, the
// agents' shifted and rescaled variants (values worked by hand, each agent's optimum attained
// and never exceeded), the draws' ranges and seeding, and the registry entry's traits.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "datasets/objective_family_entry.hpp"
#include "datasets/test_function/test_function_family.hpp"

using namespace fbosim;
using namespace fbosim::datasets;
using namespace fbosim::datasets::test_function;

namespace {
TestFunctionSpec spec_of(const char* f, int dim = 2, double shift = 0, double scale = 1) {
  TestFunctionSpec s;
  s.function = f;
  s.dim = dim;
  s.shift = shift;
  s.scale = scale;
  return s;
}
}  // namespace

TEST_CASE("test_function family: the unit box maps to the domain, the value is -g") {
  const Variant id{Eigen::VectorXd::Zero(2), 1.0};
  // Branin: x = ((pi + 5) / 15, 2.275 / 15) is the minimiser (pi, 2.275).
  const TestFunctionSpec b = spec_of("branin");
  CHECK(value(b, id, Eigen::Vector2d((std::numbers::pi + 5) / 15, 2.275 / 15)) ==
        Approx(-0.397887).margin(1e-6));
  CHECK(optimum(b, id) == Approx(-0.397887).margin(1e-6));
  // Ackley's centre 0.5 is 0; Rosenbrock's 1 is at x = 6/15; Levy's 1 at x = 11/20.
  CHECK(value(spec_of("ackley"), id, Eigen::Vector2d(0.5, 0.5)) == 0);
  CHECK(value(spec_of("rosenbrock"), id, Eigen::Vector2d::Constant(0.4)) ==
        Approx(0).margin(1e-12));
  CHECK(value(spec_of("levy"), id, Eigen::Vector2d::Constant(0.55)) == Approx(0).margin(1e-12));
  // Rosenbrock at the unit box's corner 0: z = (-5, -5): 100 (-5 - 25)^2 + 36 = 90036.
  CHECK(value(spec_of("rosenbrock"), id, Eigen::Vector2d::Zero()) == -90036);
  // Hartmann's domain is the unit box itself: the python3 value at 0.5.
  const Variant id3{Eigen::VectorXd::Zero(3), 1.0};
  CHECK(value(spec_of("hartmann3"), id3, Eigen::Vector3d::Constant(0.5)) ==
        Approx(0.6280220150705937).epsilon(1e-13));
  CHECK(optimum(spec_of("hartmann6"), Variant{Eigen::VectorXd::Zero(6), 1.0}) ==
        Approx(3.32237).margin(5e-6));
}

TEST_CASE("test_function family: a shifted, rescaled variant, by hand") {
  // Rosenbrock in 2-D, delta = (0.1, -0.2), a = 2, at x = (0.5, 0.5): x - delta = (0.4, 0.7),
  // z = -5 + 15 (0.4, 0.7) = (1, 5.5), g = 100 (5.5 - 1)^2 + 0 = 2025, f = -2 g = -4050.
  const TestFunctionSpec r = spec_of("rosenbrock", 2, 0.3, 3);
  const Variant v{Eigen::Vector2d(0.1, -0.2), 2.0};
  CHECK(value(r, v, Eigen::Vector2d(0.5, 0.5)) == Approx(-4050).epsilon(1e-13));
  // Its maximum -2 g* = 0 at x = u* + delta = (0.4 + 0.1, 0.4 - 0.2).
  CHECK(value(r, v, Eigen::Vector2d(0.5, 0.2)) == Approx(0).margin(1e-12));
  // Hartmann-3 scaled by a = 0.5: the maximum is 0.5 * 3.86278, at u* + delta.
  const TestFunctionSpec h = spec_of("hartmann3", 2, 0.3, 3);
  const Variant w{Eigen::Vector3d(0.05, -0.1, 0.1), 0.5};
  CHECK(optimum(h, w) == Approx(0.5 * 3.86278).margin(1e-5));
  CHECK(value(h, w, find_function("hartmann3").minimiser(3) + w.delta) ==
        Approx(optimum(h, w)).epsilon(1e-14));
}

TEST_CASE("test_function family: each agent's variant, drawn in range, its optimum attained") {
  for (const TestFunction& f : functions()) {
    INFO(f.name);
    // d = 3 where the function takes it (michalewicz: its first listed).
    const int dim = f.dims.empty() ? 3 : f.dims.front();
    const TestFunctionSpec s = spec_of(std::string(f.name).c_str(), dim, 0.3, 4);
    const int d = s.dimension();
    const core::RngFactory rf(11, 2);
    const TestFunctionFamily family(s);
    CHECK(family.varies_by_run());
    const auto objectives = family.make(40, rf);
    const Domain box = f.domain(d);
    const Eigen::VectorXd u =
        ((f.minimiser(d) - box.lower).array() / (box.upper - box.lower).array()).matrix();
    double log_sum = 0, spread = 0;
    core::RngStream rng(8);
    for (int n = 0; n < 40; ++n) {
      INFO("agent " << n);
      const Variant v = draw_variant(s, n, rf);
      // delta in [-0.3, 0.3] and u* + delta in the unit box; a in [1/4, 4].
      CHECK(v.delta.cwiseAbs().maxCoeff() <= 0.3);
      CHECK(((u + v.delta).array() >= 0).all());
      CHECK(((u + v.delta).array() <= 1).all());
      CHECK(v.scale >= 0.25);
      CHECK(v.scale <= 4);
      log_sum += std::log(v.scale);
      spread = std::max(spread, v.delta.cwiseAbs().maxCoeff());
      // The objective is this variant: its optimum -a g*, attained at u* + delta ...
      const auto& o = *objectives[static_cast<std::size_t>(n)];
      REQUIRE(o.optimum());
      CHECK(*o.optimum() == Approx(-v.scale * f.optimum(d)).margin(1e-15));
      CHECK(o.evaluate(u + v.delta) == Approx(*o.optimum()).margin(1e-9 * (1 + v.scale)));
      // ... and never exceeded on the box.
      for (int k = 0; k < 500; ++k)
        CHECK(o.evaluate(rng.uniform_matrix(d, 1).col(0)) <= *o.optimum());
    }
    // log a ~ U[-log 4, log 4]: mean 0, sd log 4 / sqrt 3 = 0.80; the mean of 40 within 4 sd
    // of its standard error (0.13). The shifts use their range (the largest above 0.15).
    CHECK(std::abs(log_sum / 40) < 4 * 0.80 / std::sqrt(40.0));
    CHECK(spread > 0.15);
  }
}

TEST_CASE("test_function family: seeded per run and agent, no draw without heterogeneity") {
  const TestFunctionSpec s = spec_of("ackley", 4, 0.2, 2);
  const Variant a = draw_variant(s, 3, core::RngFactory(5, 1));
  const Variant b = draw_variant(s, 3, core::RngFactory(5, 1));
  CHECK(a.delta == b.delta);
  CHECK(a.scale == b.scale);
  CHECK(draw_variant(s, 3, core::RngFactory(5, 2)).delta != a.delta);  // another run
  CHECK(draw_variant(s, 4, core::RngFactory(5, 1)).delta != a.delta);  // another agent
  // Defaults: every agent the function itself, in every run.
  const TestFunctionSpec plain = spec_of("ackley", 4);
  CHECK_FALSE(TestFunctionFamily(plain).varies_by_run());
  for (int n = 0; n < 3; ++n) {
    const Variant v = draw_variant(plain, n, core::RngFactory(5, 7));
    CHECK(v.delta == Eigen::VectorXd::Zero(4));
    CHECK(v.scale == 1);
  }
  // Only a shift, or only a scale: the other stays the identity.
  CHECK(draw_variant(spec_of("levy", 2, 0.2, 1), 0, core::RngFactory(1, 0)).scale == 1);
  CHECK(draw_variant(spec_of("levy", 2, 0, 3), 0, core::RngFactory(1, 0)).delta ==
        Eigen::VectorXd::Zero(2));
  // The first `unperturbed` agents see g itself (FTS's target agent).
  TestFunctionSpec t = s;
  t.unperturbed = 1;
  CHECK(draw_variant(t, 0, core::RngFactory(5, 1)).delta == Eigen::VectorXd::Zero(4));
  CHECK(draw_variant(t, 0, core::RngFactory(5, 1)).scale == 1);
  CHECK(draw_variant(t, 1, core::RngFactory(5, 1)).delta ==
        draw_variant(s, 1, core::RngFactory(5, 1)).delta);
}

TEST_CASE("test_function family: the registry entry, its keys and traits") {
  const ObjectiveFamilyEntry& e = objective_registry().at("test_function");
  CHECK(e.optimum_known);
  CHECK_FALSE(e.needs_data);
  REQUIRE(e.unperturbed);
  schema::Options o = e.options;
  // The default: Ackley in 2-D (BoTorch's Ackley()).
  ObjectiveShape shape = e.shape(o);
  CHECK(shape.domain == core::DomainKind::box);
  CHECK(shape.dimension == 2);
  CHECK(shape.size_key == "objective.function_dim");
  CHECK(e.make(o, "")->make(1, core::RngFactory(1, 0))[0]->evaluate(Eigen::Vector2d(0.5, 0.5)) ==
        0);
  // Hartmann-6, the same for every agent.
  o.set("objective.function", std::string("hartmann6"));
  shape = e.shape(o);
  CHECK(shape.dimension == 6);
  CHECK(shape.size_key == "objective.function");
  auto objectives = e.make(o, "")->make(3, core::RngFactory(1, 0));
  REQUIRE(objectives.size() == 3);
  CHECK(objectives[2]->domain().dim == 6);
  CHECK(*objectives[1]->optimum() == Approx(3.32237).margin(5e-6));
  core::RngStream rng(3);
  const Eigen::VectorXd half = Eigen::VectorXd::Constant(6, 0.5);
  const auto q = objectives[0]->query(half, rng);
  CHECK(q.y == q.f);  // noise_var 0 by default
  CHECK(q.f == Approx(0.5053149917022333).epsilon(1e-13));
  // Levy in 5-D with noise of variance 0.04: the sample variance of 4000 draws.
  o.set("objective.function", std::string("levy"));
  o.set("objective.function_dim", std::int64_t{5});
  o.set("objective.noise_var", 0.04);
  shape = e.shape(o);
  CHECK(shape.dimension == 5);
  CHECK(shape.size_key == "objective.function_dim");
  objectives = e.make(o, "")->make(2, core::RngFactory(1, 0));
  CHECK(objectives[0]->domain().dim == 5);
  double s2 = 0;
  const Eigen::VectorXd x = Eigen::VectorXd::Constant(5, 0.3);
  for (int k = 0; k < 4000; ++k) {
    const auto r = objectives[1]->query(x, rng);
    s2 += (r.y - r.f) * (r.y - r.f);
  }
  CHECK(s2 / 4000 == Approx(0.04).epsilon(0.1));
  // The trait sets the unperturbed agents.
  o.set("objective.shift", 0.2);
  e.unperturbed(o, 1);
  CHECK(o.as<TestFunctionSpec>().unperturbed == 1);
}

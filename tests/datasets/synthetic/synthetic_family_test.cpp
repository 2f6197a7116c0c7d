#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "datasets/synthetic/grid_gp_sampler.hpp"
#include "datasets/synthetic/grid_objective.hpp"
#include "datasets/synthetic/synthetic_family.hpp"

using Catch::Matchers::Contains;
using fbosim::core::RngFactory;
using fbosim::datasets::GridGpSampler;
using fbosim::datasets::GridObjective;
using fbosim::datasets::make_synthetic;
using fbosim::datasets::min_max_normalise;
using fbosim::datasets::SyntheticSpec;

namespace {
const Eigen::VectorXd& values(const std::shared_ptr<const fbosim::datasets::Objective>& o) {
  const auto* g = dynamic_cast<const GridObjective*>(o.get());
  REQUIRE(g != nullptr);
  return g->values();
}
}  // namespace

TEST_CASE("gp_grid: a [0,1]-normalised base, every agent off it by exactly +-perturbation") {
  const SyntheticSpec spec;  // paper defaults: 1000 points, l = 0.03, d = 0.02
  const int agents = 60;
  const RngFactory rf(2021, 0);
  const auto objs = make_synthetic(spec, agents, rf);
  REQUIRE(objs.size() == agents);
  // Recover the base from the agents alone: with 60 agents every point sees both signs
  // (all one sign has probability 2^-59), so f = (max_n f_n + min_n f_n) / 2.
  Eigen::MatrixXd all(1000, agents);
  for (int n = 0; n < agents; ++n) all.col(n) = values(objs[n]);
  const Eigen::VectorXd f = (all.rowwise().maxCoeff() + all.rowwise().minCoeff()) / 2;
  CHECK(f.minCoeff() == Approx(0.0).margin(1e-14));
  CHECK(f.maxCoeff() == Approx(1.0).epsilon(1e-14));
  // ... and it is the normalised draw of the base stream.
  fbosim::core::RngStream base = rf.stream("objective.base");
  const Eigen::VectorXd expected = min_max_normalise(GridGpSampler(1000, 0.03).sample(base));
  CHECK((f - expected).cwiseAbs().maxCoeff() < 1e-14);
  long plus = 0;
  for (int n = 0; n < agents; ++n) {
    const Eigen::ArrayXd d = all.col(n) - f;
    CHECK((d.abs() - 0.02).abs().maxCoeff() < 1e-14);
    plus += (d > 0).count();
    CHECK(*objs[n]->optimum() == all.col(n).maxCoeff());
    CHECK(objs[n]->domain().grid.rows() == 1000);
  }
  // 60000 fair signs: sd of the frequency is 0.002.
  CHECK(static_cast<double>(plus) / (1000.0 * agents) == Approx(0.5).margin(0.01));
}

TEST_CASE("agent n's objective does not depend on the number of agents or the noise") {
  for (const char* family : {"gp_grid", "heterogeneous"}) {
    SyntheticSpec spec;
    spec.family = family;
    const RngFactory rf(5, 3);
    const auto five = make_synthetic(spec, 5, rf);
    spec.noise_var = 0.5;
    const auto ten = make_synthetic(spec, 10, rf);
    for (int n = 0; n < 5; ++n) CHECK(values(five[n]) == values(ten[n]));
    CHECK(values(ten[5]) != values(ten[4]));
  }
}

TEST_CASE("heterogeneous: alpha = 1 gives independent functions, alpha = 0 identical ones") {
  SyntheticSpec spec;
  spec.family = "heterogeneous";
  spec.grid_points = 300;
  spec.lengthscale = 0.05;
  const RngFactory rf(9, 0);
  const GridGpSampler sampler(300, 0.05);
  auto norm_draw = [&](const char* purpose, std::uint64_t n) {
    fbosim::core::RngStream r = rf.stream(purpose, n);
    return Eigen::VectorXd(min_max_normalise(sampler.sample(r)));
  };
  const Eigen::VectorXd base = norm_draw("objective.base", 0);

  spec.alpha = 1.0;  // each agent is its own normalised GP draw, whatever the base
  const auto indep = make_synthetic(spec, 4, rf);
  for (int n = 0; n < 4; ++n)
    CHECK((values(indep[n]) - norm_draw("objective.agent", n)).cwiseAbs().maxCoeff() < 1e-14);
  CHECK((values(indep[0]) - values(indep[1])).cwiseAbs().maxCoeff() > 0.3);

  spec.alpha = 0.0;  // everyone sees the base
  const auto same = make_synthetic(spec, 4, rf);
  for (int n = 0; n < 4; ++n) CHECK((values(same[n]) - base).cwiseAbs().maxCoeff() < 1e-14);

  spec.alpha = 0.7;  // Fig. 7a
  const auto mixed = make_synthetic(spec, 2, rf);
  const Eigen::VectorXd want = 0.7 * norm_draw("objective.agent", 1) + 0.3 * base;
  CHECK((values(mixed[1]) - want).cwiseAbs().maxCoeff() < 1e-14);
  CHECK(values(mixed[1]).minCoeff() >= 0.0);
  CHECK(values(mixed[1]).maxCoeff() <= 1.0);

  // objective.normalise: the raw draws of the same streams where a part is not normalised
  auto raw_draw = [&](const char* purpose, std::uint64_t n) {
    fbosim::core::RngStream r = rf.stream(purpose, n);
    return Eigen::VectorXd(sampler.sample(r));
  };
  const Eigen::VectorXd g = raw_draw("objective.agent", 1),
                        raw_base = raw_draw("objective.base", 0);
  CHECK(g.maxCoeff() - g.minCoeff() > 1.5);  // a variance-1 sample, not one in [0, 1]
  const Eigen::VectorXd norm_g = norm_draw("objective.agent", 1);
  const std::pair<std::string, Eigen::VectorXd> cases[] = {{"both", 0.7 * norm_g + 0.3 * base},
                                                           {"base", 0.7 * g + 0.3 * base},
                                                           {"g", 0.7 * norm_g + 0.3 * raw_base},
                                                           {"none", 0.7 * g + 0.3 * raw_base}};
  for (const auto& [which, want_n] : cases) {
    spec.normalise = which;
    CHECK((values(make_synthetic(spec, 2, rf)[1]) - want_n).cwiseAbs().maxCoeff() < 1e-14);
  }
}

TEST_CASE("bad specs throw naming the field and the value") {
  auto fails = [](auto edit, const char* text) {
    SyntheticSpec s;
    edit(s);
    CHECK_THROWS_WITH(make_synthetic(s, 2, RngFactory(1, 0)), Contains(text));
  };
  fails([](SyntheticSpec& s) { s.family = "gp_ball"; }, "synthetic.family");
  fails([](SyntheticSpec& s) { s.family = "gp_ball"; }, "gp_ball");
  fails([](SyntheticSpec& s) { s.grid_points = 1; }, "synthetic.grid_points must be");
  fails([](SyntheticSpec& s) { s.lengthscale = -1; }, "synthetic.lengthscale must be > 0, got -1");
  fails([](SyntheticSpec& s) { s.lengthscale = 0; }, "synthetic.lengthscale");
  fails([](SyntheticSpec& s) { s.perturbation = -0.5; },
        "synthetic.perturbation must be >= 0, got -0.5");
  fails([](SyntheticSpec& s) { s.noise_var = -1e-3; },
        "synthetic.noise_var must be >= 0, got -0.001");
  fails([](SyntheticSpec& s) { s.alpha = 1.5; }, "synthetic.alpha must be in [0, 1], got 1.5");
  fails([](SyntheticSpec& s) { s.alpha = std::nan(""); }, "synthetic.alpha");
  fails([](SyntheticSpec& s) { s.dim = 0; }, "synthetic.dim must be >= 1, got 0");
  fails([](SyntheticSpec& s) { s.normalise = std::string(8, 'x'); },
        "synthetic.normalise must be both, base");
  CHECK_THROWS_WITH(make_synthetic(SyntheticSpec{}, 0, RngFactory(1, 0)), Contains("agents"));
}

TEST_CASE("one family serves every run: the same objectives as a family built per run") {
  for (const char* family : {"gp_grid", "heterogeneous"}) {
    SyntheticSpec spec;
    spec.family = family;
    spec.grid_points = 200;
    const fbosim::datasets::SyntheticFamily shared(spec);  // factorises once
    for (int run = 0; run < 3; ++run) {
      const RngFactory rf(11, static_cast<std::uint64_t>(run));
      const auto a = shared.make(4, rf);
      const auto b = make_synthetic(spec, 4, rf);  // its own factor
      for (int n = 0; n < 4; ++n) {
        CHECK(values(a[n]) == values(b[n]));
        CHECK(&a[n]->domain() == &a[0]->domain());  // one domain for all agents and runs
      }
      if (run > 0) CHECK(&a[0]->domain() == &shared.make(1, RngFactory(11, 0))[0]->domain());
    }
  }
}

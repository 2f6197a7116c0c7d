// Branin-Hoo against its closed form: the published minimum 0.397887 at its three minimisers
// (Dixon & Szego 1978), a point worked by hand, and the family's traits.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "datasets/branin/branin_family.hpp"
#include "datasets/objective_family_entry.hpp"

using namespace fbosim;
using namespace fbosim::datasets;

namespace {
// (u, v) on Branin's ranges -> the unit square.
Eigen::VectorXd unit(double u, double v) { return Eigen::Vector2d((u + 5) / 15, v / 15); }
}  // namespace

TEST_CASE("branin: the published minimum at each of its three minimisers") {
  constexpr double pi = std::numbers::pi;
  for (const auto& [u, v] : {std::pair{-pi, 12.275}, {pi, 2.275}, {3 * pi, 2.475}}) {
    INFO(u << ", " << v);
    CHECK(branin::branin(u, v) == Approx(0.397887).margin(1e-6));
    CHECK(branin::value(unit(u, v)) == Approx(-0.397887).margin(1e-6));
  }
  CHECK(branin::optimum() == Approx(-0.397887357729738).epsilon(1e-14));
  // (0, 0): 1 * (0 - 0 + 0 - 6)^2 + 10 (1 - 1/(8 pi)) + 10 = 56 - 10/(8 pi).
  CHECK(branin::branin(0, 0) == Approx(56 - 10 / (8 * pi)).epsilon(1e-14));
  // A corner: u = -5, v = 0: (-5.1 * 25/(4 pi^2) - 25/pi - 6)^2 + 10 (1 - 1/(8 pi)) cos(-5) + 10.
  const double q = -5.1 * 25 / (4 * pi * pi) - 25 / pi - 6;
  CHECK(branin::branin(-5, 0) ==
        Approx(q * q + 10 * (1 - 1 / (8 * pi)) * std::cos(-5.0) + 10).epsilon(1e-14));
}

TEST_CASE("branin: no point of a fine grid lies above the optimum") {
  double best = -INFINITY;
  for (int i = 0; i <= 300; ++i)
    for (int j = 0; j <= 300; ++j)
      best = std::max(best, branin::value(Eigen::Vector2d(i / 300.0, j / 300.0)));
  CHECK(best <= branin::optimum());
  CHECK(best > branin::optimum() - 0.01);
}

TEST_CASE("branin: the registered family's objectives, box and grid") {
  const ObjectiveFamilyEntry& e = objective_registry().at("branin");
  CHECK(e.optimum_known);
  CHECK_FALSE(e.needs_data);
  schema::Options o = e.options;
  const auto box = e.make(o, "")->make(3, core::RngFactory(1, 0));
  REQUIRE(box.size() == 3);
  CHECK_FALSE(box[0]->domain().is_grid());
  CHECK(box[0]->domain().dim == 2);
  CHECK(box[2]->optimum() == Approx(branin::optimum()));
  core::RngStream rng(3);
  const auto q = box[1]->query(unit(std::numbers::pi, 2.275), rng);
  CHECK(q.y == q.f);  // noise_var 0 by default
  CHECK(q.f == Approx(-0.397887).margin(1e-6));

  o.set("objective.branin_grid", std::int64_t{21});
  o.set("objective.noise_var", 0.25);
  const auto grid = e.make(o, "")->make(2, core::RngFactory(1, 0));
  const core::Domain& d = grid[0]->domain();
  CHECK(d.grid.rows() == 21 * 21);
  CHECK(e.shape(o).points == 21 * 21);
  // The grid's best point, never above the function's maximum.
  double best = -INFINITY;
  for (Eigen::Index i = 0; i < d.grid.rows(); ++i)
    best = std::max(best, branin::value(d.grid.row(i).transpose()));
  CHECK(*grid[0]->optimum() == best);
  CHECK(best < branin::optimum());
  // Noise of variance 0.25: the sample variance of 4000 draws.
  double s = 0, s2 = 0;
  const Eigen::VectorXd x = d.grid.row(7).transpose();
  for (int k = 0; k < 4000; ++k) {
    const auto r = grid[1]->query(x, rng);
    s += r.y - r.f;
    s2 += (r.y - r.f) * (r.y - r.f);
  }
  CHECK(s / 4000 == Approx(0).margin(0.03));
  CHECK(s2 / 4000 == Approx(0.25).epsilon(0.1));
}

#include <catch2/catch.hpp>

#include <Eigen/Core>

#include "algorithms/rff/grid_argmax.hpp"
#include "algorithms/rff/random_features.hpp"

using fbosim::core::RngStream;
using fbosim::rff::grid_argmax;
using fbosim::rff::RandomFeatures;
using fbosim::rff::UniformGrid;

namespace {
Eigen::MatrixXd line(Eigen::Index G, double x0, double x1) {
  return Eigen::VectorXd::LinSpaced(G, x0, x1);
}
}  // namespace

TEST_CASE("grid_argmax on an equally spaced grid finds the maximum of phi(x) . omega") {
  RngStream rng(31);
  // Grid sizes off the vector width and the anchor spacing, feature counts off the groups of 4,
  // short and long lengthscales (slow and fast phases).
  for (const Eigen::Index G : {3, 1000, 1301, 2049})
    for (const int M : {1, 7, 100})
      for (const double l : {0.01, 0.3, 5.0}) {
        const Eigen::MatrixXd grid = line(G, -0.2, 1.3);
        REQUIRE(UniformGrid::of(grid));
        const RandomFeatures f = RandomFeatures::draw(1, M, l, 2.0, rng);
        const Eigen::VectorXd omega = rng.normal_vector(M);
        const Eigen::VectorXd g = f.values(grid, omega);
        const Eigen::Index j = grid_argmax(f, grid, omega);
        CAPTURE(G, M, l);
        CHECK(g[j] >= g.maxCoeff() - 1e-9);
      }
}

TEST_CASE("grid_argmax on other grids takes the first maximiser of RandomFeatures::values") {
  RngStream rng(32);
  Eigen::MatrixXd uneven = line(50, 0, 1);
  uneven(7, 0) += 1e-3;
  Eigen::MatrixXd plane = rng.uniform_matrix(60, 2);
  CHECK_FALSE(UniformGrid::of(uneven));
  CHECK_FALSE(UniformGrid::of(plane));
  for (Eigen::MatrixXd* grid : {&uneven, &plane}) {
    const RandomFeatures f =
        RandomFeatures::draw(static_cast<int>(grid->cols()), 20, 0.2, 1.0, rng);
    const Eigen::VectorXd omega = rng.normal_vector(20);
    Eigen::Index best = 0;
    f.values(*grid, omega).maxCoeff(&best);
    CHECK(grid_argmax(f, *grid, omega) == best);
  }
}

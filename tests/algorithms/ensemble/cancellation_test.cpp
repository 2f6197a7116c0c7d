// Ctrl-C stops RGPE's ranking losses (ensemble.samples up to 1e5) between samples (issue 24).
#include <catch2/catch.hpp>

#include "algorithms/ensemble/rank_losses.hpp"
#include "ensemble_fixture.hpp"
#include "core/cancellation.hpp"

using fbosim::core::Cancelled;
using fbosim::core::RngStream;
using fbosim::ensemble::independent_rank_losses;
using fbosim::ensemble::rank_losses;
using fbosim::rff::RandomFeatures;

TEST_CASE("the ranking losses stop with Cancelled once cancellation is requested") {
  RngStream rng(7);
  const RandomFeatures f = RandomFeatures::draw(2, 20, 0.3, 1.0, rng);
  const Eigen::MatrixXd Xs = rng.uniform_matrix(10, 2);
  const auto s = ensemble_test::source_from_data(f, Xs, ensemble_test::bumps(Xs, 0.5), 0.05);
  const Eigen::MatrixXd X = rng.uniform_matrix(6, 2);
  const Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
  const Eigen::MatrixXd Phi = f.features(X);
  fbosim::core::request_cancellation();
  CHECK_THROWS_AS(independent_rank_losses(s, Phi, y, 100, rng), Cancelled);
  CHECK_THROWS_AS(rank_losses(Eigen::MatrixXd::Zero(6, 100), y), Cancelled);
  fbosim::core::reset_cancellation();
  CHECK(independent_rank_losses(s, Phi, y, 100, rng).size() == 100);
}

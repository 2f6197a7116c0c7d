#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/acquisition/candidate_argmax.hpp"
#include "core/rng.hpp"

using fbosim::acq::CandidateArgmax;
using fbosim::acq::CandidateChoice;

TEST_CASE("CandidateArgmax: ties go to the lowest index, NaN never wins") {
  CHECK(CandidateArgmax::argmax((Eigen::VectorXd(5) << 1, 3, 2, 3, 3).finished()) == 1);
  CHECK(CandidateArgmax::argmax((Eigen::VectorXd(3) << 2, 2, 2).finished()) == 0);
  CHECK(CandidateArgmax::argmax((Eigen::VectorXd(4) << NAN, -1, NAN, -1).finished()) == 1);
  CHECK(CandidateArgmax::argmax((Eigen::VectorXd(3) << -INFINITY, -INFINITY, -5).finished()) == 2);
  CHECK(CandidateArgmax::argmax((Eigen::VectorXd(2) << INFINITY, INFINITY).finished()) == 0);
  CHECK_THROWS_AS(CandidateArgmax::argmax(Eigen::VectorXd(0)), std::invalid_argument);
  CHECK_THROWS_AS(CandidateArgmax::argmax(Eigen::VectorXd::Constant(3, NAN)),
                  std::invalid_argument);
}

TEST_CASE("CandidateArgmax: the choice is the brute-force maximum of the batch score") {
  fbosim::core::RngStream rng(40);
  const Eigen::MatrixXd C = rng.uniform_matrix(1000, 2);
  const CandidateArgmax argmax(C);
  // score(x) = -|x - (0.3, 0.8)|^2: the nearest candidate to (0.3, 0.8) wins.
  const CandidateChoice c = argmax.maximise([](const Eigen::MatrixXd& X) -> Eigen::VectorXd {
    return -(X.rowwise() - Eigen::RowVector2d(0.3, 0.8)).rowwise().squaredNorm();
  });
  Eigen::Index nearest = 0;
  for (Eigen::Index j = 1; j < C.rows(); ++j)
    if ((C.row(j) - Eigen::RowVector2d(0.3, 0.8)).norm() <
        (C.row(nearest) - Eigen::RowVector2d(0.3, 0.8)).norm())
      nearest = j;
  CHECK(c.index == nearest);
  CHECK(c.x == C.row(nearest).transpose());
  CHECK(c.value == -(C.row(nearest) - Eigen::RowVector2d(0.3, 0.8)).squaredNorm());
  // Precomputed values with a duplicated maximum: the first copy.
  Eigen::VectorXd v = Eigen::VectorXd::Zero(1000);
  v[700] = v[300] = 2.0;
  CHECK(argmax.maximise_values(v).index == 300);
  CHECK_THROWS_AS(argmax.maximise_values(Eigen::VectorXd::Zero(999)), std::invalid_argument);
  CHECK_THROWS_AS(CandidateArgmax(Eigen::MatrixXd(0, 2)), std::invalid_argument);
}

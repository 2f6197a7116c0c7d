#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/surrogate/exact_gp.hpp"
#include "algorithms/surrogate/joint_gaussian.hpp"

using fbosim::core::RngStream;
using fbosim::surrogate::JitteredCholesky;
using fbosim::surrogate::robust_cholesky;
using fbosim::surrogate::sample_joint_gaussian;

TEST_CASE("robust_cholesky: no jitter when definite, the smallest sufficient jitter otherwise") {
  RngStream rng(60);
  const Eigen::MatrixXd B = rng.normal_matrix(6, 6);
  const Eigen::MatrixXd C = B * B.transpose() + Eigen::MatrixXd::Identity(6, 6);
  const JitteredCholesky a = robust_cholesky(C);
  CHECK(a.jitter == 0.0);
  CHECK((a.L * a.L.transpose() - C).cwiseAbs().maxCoeff() < 1e-12);
  // Rank 1 and 2 (semi-definite): whatever jitter was needed is at most 1e-6 of the mean
  // variance, and L L^T reproduces C + jitter I.
  for (int rank : {1, 2}) {
    const Eigen::MatrixXd V = rng.normal_matrix(5, rank);
    const Eigen::MatrixXd S = V * V.transpose();
    const JitteredCholesky j = robust_cholesky(S);
    CHECK(j.jitter <= 1e-6 * S.diagonal().mean());
    CHECK((j.L * j.L.transpose() - S - j.jitter * Eigen::MatrixXd::Identity(5, 5))
              .cwiseAbs()
              .maxCoeff() < 1e-12 * S.diagonal().mean());
  }
  CHECK(robust_cholesky(Eigen::MatrixXd::Zero(3, 3)).L == Eigen::MatrixXd::Zero(3, 3));
  // Indefinite far beyond rounding: an error, not a silently wrong draw.
  const Eigen::Matrix2d bad = (Eigen::Matrix2d() << 1.0, 2.0, 2.0, 1.0).finished();
  CHECK_THROWS_AS(robust_cholesky(bad), std::runtime_error);
  CHECK_THROWS_AS(robust_cholesky(Eigen::MatrixXd::Ones(2, 3)), std::invalid_argument);
  CHECK_THROWS_AS(robust_cholesky(Eigen::MatrixXd::Constant(2, 2, NAN)), std::invalid_argument);
}

TEST_CASE("sample_joint_gaussian: a point mass returns the mean; draws do not depend on count") {
  RngStream rng(61);
  const Eigen::Vector3d mean(1.0, -2.0, 0.5);
  const Eigen::MatrixXd F = sample_joint_gaussian(mean, Eigen::MatrixXd::Zero(3, 3), 4, rng);
  for (int s = 0; s < 4; ++s) CHECK(F.col(s) == mean);
  const Eigen::Matrix3d C = (Eigen::Matrix3d() << 2, 0.5, 0, 0.5, 1, 0.3, 0, 0.3, 0.7).finished();
  RngStream a(62), b(62);
  const Eigen::MatrixXd many = sample_joint_gaussian(mean, C, 10, a);
  const Eigen::MatrixXd few = sample_joint_gaussian(mean, C, 2, b);
  CHECK(many.leftCols(2) == few);
  CHECK_THROWS_AS(sample_joint_gaussian(mean, C, -1, a), std::invalid_argument);
  CHECK_THROWS_AS(sample_joint_gaussian(mean.head(2), C, 1, a), std::invalid_argument);
}

TEST_CASE("an exact GP samples jointly on a dense grid (a numerically singular covariance)") {
  // FTS sec. 5.1's setting: TS on a 1000-point grid in [0, 1], length scale 0.03, noise 0.01.
  fbosim::surrogate::ExactGp gp(1, fbosim::gp::SeHyper{0.03, 1.0, 0.01});
  RngStream rng(63);
  for (int i = 0; i < 20; ++i) gp.add(Eigen::VectorXd::Constant(1, rng.uniform()), rng.normal());
  const Eigen::MatrixXd grid = Eigen::VectorXd::LinSpaced(1000, 0.0, 1.0);
  const auto joint = gp.predict_joint(grid);
  const JitteredCholesky chol = robust_cholesky(joint.covariance);
  CHECK(chol.jitter > 0.0);  // neighbouring grid points are almost perfectly correlated
  CHECK(chol.jitter <= 1e-6 * joint.covariance.diagonal().mean());
  const Eigen::MatrixXd F = gp.sample(grid, 3, rng);
  CHECK(F.rows() == 1000);
  CHECK(F.allFinite());
}

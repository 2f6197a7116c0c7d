#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/gp/se_kernel.hpp"
#include "core/rng.hpp"

using namespace fbosim;

TEST_CASE("SE kernel against hand-computed values") {
  Eigen::MatrixXd A(2, 2), B(3, 2);
  A << 0, 0, 1, 0;
  B << 0, 0, 0, 1, 1, 1;
  const Eigen::MatrixXd K = gp::se_kernel(A, B, 0.5, 2.0);
  REQUIRE(K.rows() == 2);
  REQUIRE(K.cols() == 3);
  // k = 2 exp(-r^2 / (2 * 0.25)) with r^2 = 0, 1, 2 (row 0) and 1, 2, 1 (row 1).
  CHECK(K(0, 0) == Approx(2.0));
  CHECK(K(0, 1) == Approx(2.0 * std::exp(-2.0)));
  CHECK(K(0, 2) == Approx(2.0 * std::exp(-4.0)));
  CHECK(K(1, 0) == Approx(2.0 * std::exp(-2.0)));
  CHECK(K(1, 1) == Approx(2.0 * std::exp(-4.0)));
  CHECK(K(1, 2) == Approx(2.0 * std::exp(-2.0)));
}

TEST_CASE("SE kernel of a set with itself is symmetric with signal_var on the diagonal") {
  core::RngStream rng(11);
  const Eigen::MatrixXd X = rng.uniform_matrix(12, 3);
  const Eigen::MatrixXd S = gp::se_kernel(X, X, 0.3, 1.5);
  CHECK((S - S.transpose()).cwiseAbs().maxCoeff() < 1e-14);
  CHECK((S.diagonal().array() - 1.5).abs().maxCoeff() < 1e-14);
  CHECK(S.maxCoeff() <= 1.5 + 1e-14);
  CHECK(S.minCoeff() > 0.0);
}

TEST_CASE("squared distances against a direct loop") {
  core::RngStream rng(12);
  const Eigen::MatrixXd A = rng.uniform_matrix(5, 2), B = rng.uniform_matrix(4, 2);
  const Eigen::MatrixXd D = gp::squared_distances(A, B);
  for (Eigen::Index i = 0; i < 5; ++i)
    for (Eigen::Index j = 0; j < 4; ++j)
      CHECK(D(i, j) == Approx((A.row(i) - B.row(j)).squaredNorm()).margin(1e-14));
}

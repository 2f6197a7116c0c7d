#pragma once
// Checks that `draws` samples of an M-vector have mean `nu` and covariance `cov` within 5
// standard errors per entry (the s.e. of a sample covariance of Gaussian draws:
// sqrt((C_ii C_jj + C_ij^2) / draws)).
#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

namespace fbosim::testing {

template <typename Draw>
void check_draw_moments(Draw draw, const Eigen::VectorXd& nu, const Eigen::MatrixXd& cov,
                        int draws) {
  const auto M = nu.size();
  Eigen::MatrixXd W(M, draws);
  for (int k = 0; k < draws; ++k) W.col(k) = draw();
  const Eigen::VectorXd m = W.rowwise().mean();
  const Eigen::MatrixXd centred = W.colwise() - m;
  const Eigen::MatrixXd c = centred * centred.transpose() / (draws - 1);
  for (Eigen::Index i = 0; i < M; ++i) {
    CHECK(std::abs(m[i] - nu[i]) < 5 * std::sqrt(cov(i, i) / draws));
    for (Eigen::Index j = 0; j < M; ++j) {
      const double se = std::sqrt((cov(i, i) * cov(j, j) + cov(i, j) * cov(i, j)) / draws);
      CHECK(std::abs(c(i, j) - cov(i, j)) < 5 * se);
    }
  }
}

}  // namespace fbosim::testing

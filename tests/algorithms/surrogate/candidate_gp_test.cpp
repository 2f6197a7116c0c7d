// CandidateGp: the incremental posterior over a fixed candidate set equals the textbook posterior
// solved densely after every observation, and ExactGp::predict on the same candidates.
#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>

#include "algorithms/surrogate/candidate_gp.hpp"

using fbosim::core::RngStream;
using fbosim::gp::SeHyper;
using fbosim::surrogate::CandidateGp;
using fbosim::surrogate::ExactGp;

namespace {
Eigen::MatrixXd kernel(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const SeHyper& h) {
  Eigen::MatrixXd K(A.rows(), B.rows());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.rows(); ++j)
      K(i, j) = h.signal_var * std::exp(-(A.row(i) - B.row(j)).squaredNorm() /
                                        (2 * h.lengthscale * h.lengthscale));
  return K;
}
}  // namespace

TEST_CASE("CandidateGp equals the dense posterior after every add (candidates and other points)") {
  RngStream rng(5);
  const SeHyper h{0.3, 1.4, 0.02};
  ExactGp::Options o;
  o.prior_mean = -0.2;
  o.jitter = 0;
  const Eigen::MatrixXd C = rng.uniform_matrix(60, 2);
  CandidateGp gp(C, h, o);
  CHECK(gp.mean().isConstant(-0.2));
  CHECK(gp.variance().isConstant(1.4));
  Eigen::MatrixXd X(0, 2);
  Eigen::VectorXd y(0);
  for (int t = 0; t < 40; ++t) {  // past the initial capacity of 16 rows
    const double v = rng.normal();
    Eigen::VectorXd x;
    if (t % 3 == 2) {  // a point outside the set
      x = rng.uniform_matrix(1, 2).row(0).transpose();
      gp.add(x, v);
    } else {
      const auto i = static_cast<Eigen::Index>(rng.uniform_int(60));
      x = C.row(i).transpose();
      gp.add(i, v);
    }
    X.conservativeResize(t + 1, 2);
    X.row(t) = x.transpose();
    y.conservativeResize(t + 1);
    y[t] = v;
    const Eigen::MatrixXd A =
        kernel(X, X, h) + h.noise_var * Eigen::MatrixXd::Identity(t + 1, t + 1);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
    const Eigen::MatrixXd Ks = kernel(X, C, h);
    const Eigen::VectorXd mean =
        (Ks.transpose() * lu.solve((y.array() + 0.2).matrix())).array() - 0.2;
    const Eigen::VectorXd var =
        (h.signal_var - (Ks.array() * lu.solve(Ks).array()).colwise().sum()).transpose();
    INFO("after " << t + 1 << " observations");
    CHECK((gp.mean() - mean).cwiseAbs().maxCoeff() < 1e-9);
    CHECK((gp.variance() - var.cwiseMax(0.0)).cwiseAbs().maxCoeff() < 1e-9);
  }
  const auto p = gp.gp().predict(C);
  CHECK((gp.mean() - p.mean).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((gp.variance() - p.variance).cwiseAbs().maxCoeff() < 1e-10);
  CHECK(gp.size() == 40);
  CHECK_THROWS_AS(gp.add(Eigen::Index{60}, 0.0), std::out_of_range);
}

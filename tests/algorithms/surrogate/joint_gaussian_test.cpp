#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "algorithms/surrogate/exact_gp.hpp"
#include "algorithms/surrogate/joint_gaussian.hpp"

using fbosim::core::RngStream;
using fbosim::surrogate::JitteredCholesky;
using fbosim::surrogate::psd_projection_factor;
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

TEST_CASE("sample_joint_gaussian: a point mass returns the mean, draws do not depend on count") {
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

namespace {
// Q diag(d) Q^T with Q a random orthogonal m x m matrix (the Q of a normal matrix's QR): a
// symmetric matrix whose eigen-decomposition is known without an eigen-solver.
Eigen::MatrixXd with_spectrum(const Eigen::VectorXd& d, RngStream& rng, Eigen::MatrixXd* Q_out) {
  const Eigen::Index m = d.size();
  const Eigen::MatrixXd Q =
      Eigen::HouseholderQR<Eigen::MatrixXd>(rng.normal_matrix(m, m)).householderQ();
  if (Q_out) *Q_out = Q;
  Eigen::MatrixXd C = Q * d.asDiagonal() * Q.transpose();
  return (0.5 * (C + C.transpose())).eval();
}
}  // namespace

TEST_CASE("sample_joint_gaussian: where no jitter factorises, draws follow the PSD projection") {
  // A rank-3 covariance of 40 points (a posterior at inputs queried close together is singular)
  // whose null space rounding left at -2e-7 of the largest variance: more than the ladder's
  // largest jitter, 1e-6 of the mean variance (1.5 / 40), reaches. Before the projection
  // fallback this threw (robust_cholesky still does).
  RngStream rng(64);
  const int m = 40;
  Eigen::VectorXd d = Eigen::VectorXd::Zero(m);
  d.head(3) << 1.0, 0.5, 1e-3;
  for (int k = 3; k < m; k += 2) d[k] = -2e-7;
  Eigen::MatrixXd Q;
  const Eigen::MatrixXd C = with_spectrum(d, rng, &Q);
  CHECK_THROWS_AS(robust_cholesky(C), std::runtime_error);
  // The projection, by construction (no eigen-solver): Q diag(max(d, 0)) Q^T.
  const Eigen::MatrixXd P = Q * d.cwiseMax(0.0).asDiagonal() * Q.transpose();
  const Eigen::MatrixXd L = psd_projection_factor(C);
  CHECK(L.isLowerTriangular());
  CHECK((L.diagonal().array() >= 0.0).all());
  CHECK((L * L.transpose() - P).cwiseAbs().maxCoeff() < 1e-12);
  // Many draws: their sample covariance is P within 5 standard errors entry by entry
  // (Var of entry (i, j) over n draws: (P_ii P_jj + P_ij^2) / n for a Gaussian).
  const Eigen::VectorXd mean = Eigen::VectorXd::LinSpaced(m, -1.0, 1.0);
  const int n = 20000;
  const Eigen::MatrixXd F = sample_joint_gaussian(mean, C, n, rng);
  const Eigen::MatrixXd D = F.colwise() - mean;
  const Eigen::MatrixXd S = D * D.transpose() / n;
  double worst = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double se = std::sqrt((P(i, i) * P(j, j) + P(i, j) * P(i, j)) / n);
      worst = std::max(worst, std::abs(S(i, j) - P(i, j)) / se);
    }
  CHECK(worst < 5.0);
  // The draws lie in P's range: no independent noise in the projected-out directions.
  const Eigen::MatrixXd null = Q.rightCols(m - 3);
  CHECK((null.transpose() * D).cwiseAbs().maxCoeff() < 1e-6);
  // The same rng stream use as a factorisable covariance: draw s depends on block s only.
  RngStream a(65), b(65);
  CHECK(sample_joint_gaussian(mean, C, 7, a).leftCols(3) == sample_joint_gaussian(mean, C, 3, b));
}

TEST_CASE("psd_projection_factor: rounding-sized negative eigenvalues only") {
  RngStream rng(66);
  // At the tolerance's edge: -0.9e-3 of the largest eigenvalue is projected, -1.1e-3 refused.
  Eigen::VectorXd d = Eigen::VectorXd::Zero(6);
  d.head(2) << 2.0, 1.0;
  d[5] = -0.9e-3 * 2.0;
  CHECK_NOTHROW(psd_projection_factor(with_spectrum(d, rng, nullptr)));
  d[5] = -1.1e-3 * 2.0;
  CHECK_THROWS_AS(psd_projection_factor(with_spectrum(d, rng, nullptr)), std::runtime_error);
  // A covariance that is wrong, not rounded, still stops the draw with both reasons.
  const Eigen::Matrix2d bad = (Eigen::Matrix2d() << 1.0, 2.0, 2.0, 1.0).finished();
  CHECK_THROWS_AS(psd_projection_factor(bad), std::runtime_error);
  try {
    sample_joint_gaussian(Eigen::Vector2d::Zero(), bad, 1, rng);
    FAIL("an indefinite covariance was drawn from");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    CHECK(what.find("even with jitter") != std::string::npos);
    CHECK(what.find("indefinite beyond rounding") != std::string::npos);
  }
  // A definite matrix: L L^T = C (the projection changes nothing); empty and non-square.
  const Eigen::MatrixXd B = rng.normal_matrix(5, 5);
  const Eigen::MatrixXd C = B * B.transpose();
  const Eigen::MatrixXd L = psd_projection_factor(C);
  CHECK((L * L.transpose() - C).cwiseAbs().maxCoeff() < 1e-12 * C.cwiseAbs().maxCoeff());
  CHECK(psd_projection_factor(Eigen::MatrixXd(0, 0)).size() == 0);
  CHECK(psd_projection_factor(Eigen::MatrixXd::Zero(3, 3)) == Eigen::MatrixXd::Zero(3, 3));
  CHECK_THROWS_AS(psd_projection_factor(Eigen::MatrixXd::Ones(2, 3)), std::invalid_argument);
}

TEST_CASE("sample_joint_gaussian: the RGPE leave-one-out covariance that stopped a DIRECT run") {
  // tests/algorithms/surrogate/data/rgpe_direct_loo_covariance.txt: the covariance (44 x 44)
  // whose draw stopped run 4 of configs/fts/landmine_direct.yaml's RGPE curve. Its smallest
  // eigenvalue is about -7.7e-11, its largest 1.5e-5, its mean variance 4.4e-6: the ladder's
  // largest jitter (4.4e-12) falls short; the projection accepts it (-5.2e-6 of the largest).
  std::ifstream in(std::string(FBOSIM_SOURCE_DIR) +
                   "/tests/algorithms/surrogate/data/rgpe_direct_loo_covariance.txt");
  REQUIRE(in);
  std::vector<double> values;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    for (double v; row >> v;) values.push_back(v);
  }
  REQUIRE(values.size() == 44u * 44u);
  const Eigen::MatrixXd C = Eigen::Map<const Eigen::MatrixXd>(values.data(), 44, 44);
  CHECK_THROWS_AS(robust_cholesky(C), std::runtime_error);
  const Eigen::MatrixXd L = psd_projection_factor(C);
  // The projection moves C by no more than its negative eigenvalues' sum (about 3e-10 in all),
  // entry by entry: a check of L L^T against C that needs no eigen-solver.
  CHECK((L * L.transpose() - C).cwiseAbs().maxCoeff() < 1e-9);
  RngStream rng(67);
  const Eigen::VectorXd mean = Eigen::VectorXd::Zero(44);
  const int n = 20000;
  const Eigen::MatrixXd F = sample_joint_gaussian(mean, C, n, rng);
  const Eigen::MatrixXd S = F * F.transpose() / n;
  double worst = 0.0;
  for (int i = 0; i < 44; ++i)
    for (int j = 0; j < 44; ++j) {
      const double se = std::sqrt((C(i, i) * C(j, j) + C(i, j) * C(i, j)) / n);
      worst = std::max(worst, std::abs(S(i, j) - C(i, j)) / se);
    }
  CHECK(worst < 5.0);
}

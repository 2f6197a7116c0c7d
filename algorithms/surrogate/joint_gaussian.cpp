#include "algorithms/surrogate/joint_gaussian.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fbosim::surrogate {

namespace {
void check_covariance(const Eigen::MatrixXd& C, const char* who) {
  if (C.cols() != C.rows())
    throw std::invalid_argument(std::string(who) + ": covariance must be square");
  if (!C.allFinite()) throw std::invalid_argument(std::string(who) + ": covariance is not finite");
}

std::string three_digits(double x) {
  std::ostringstream out;
  out.precision(3);
  out << x;
  return out.str();
}

// robust_cholesky's jitter ladder; nullopt (and `tried`, the largest jitter) when all fail.
std::optional<JitteredCholesky> jitter_ladder(const Eigen::MatrixXd& C, double& tried) {
  const Eigen::Index m = C.rows();
  check_covariance(C, "robust_cholesky");
  JitteredCholesky out;
  tried = 0.0;
  if (m == 0) return out;
  const double scale = C.diagonal().mean();
  if (scale < 0.0)
    throw std::invalid_argument("robust_cholesky: negative mean variance " + std::to_string(scale));
  if (scale == 0.0 && C.cwiseAbs().maxCoeff() == 0.0) {
    out.L = Eigen::MatrixXd::Zero(m, m);  // a point mass: every draw is the mean
    return out;
  }
  Eigen::MatrixXd A = C;
  for (const double rel : {0.0, 1e-12, 1e-10, 1e-8, 1e-6}) {
    const double jitter = rel * scale;
    A.diagonal() = C.diagonal().array() + jitter;
    Eigen::LLT<Eigen::MatrixXd> llt(A);
    tried = jitter;
    if (llt.info() == Eigen::Success && llt.matrixLLT().diagonal().allFinite()) {
      out.L = llt.matrixL();
      out.jitter = jitter;
      return out;
    }
  }
  return std::nullopt;
}

std::string jitter_failure(double tried) {
  return "covariance is not positive semi-definite even with jitter " + three_digits(tried) +
         " (1e-6 of the mean variance) on the diagonal";
}
}  // namespace

JitteredCholesky robust_cholesky(const Eigen::MatrixXd& C) {
  double tried = 0.0;
  std::optional<JitteredCholesky> chol = jitter_ladder(C, tried);
  if (!chol) throw std::runtime_error("robust_cholesky: " + jitter_failure(tried));
  return std::move(*chol);
}

Eigen::MatrixXd psd_projection_factor(const Eigen::MatrixXd& C) {
  check_covariance(C, "psd_projection_factor");
  const Eigen::Index m = C.rows();
  if (m == 0) return Eigen::MatrixXd(0, 0);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (C + C.transpose()));
  if (eig.info() != Eigen::Success)
    throw std::runtime_error("psd_projection_factor: the eigen-decomposition did not converge");
  const Eigen::VectorXd& lambda = eig.eigenvalues();  // ascending
  const double top = lambda[m - 1], bottom = lambda[0];
  if (top <= 0.0 ? bottom < 0.0 : bottom < -kPsdProjectionTolerance * top)
    throw std::runtime_error("psd_projection_factor: covariance is indefinite beyond rounding: " +
                             std::string("smallest eigenvalue ") + three_digits(bottom) +
                             " against the largest " + three_digits(top) + " (accepted down to -" +
                             three_digits(kPsdProjectionTolerance) + " of the largest)");
  // G G^T = P with G = V sqrt(max(lambda, 0)); G^T = Q R gives G G^T = R^T R, so L = R^T.
  const Eigen::MatrixXd G = eig.eigenvectors() * lambda.cwiseMax(0.0).cwiseSqrt().asDiagonal();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(G.transpose());
  Eigen::MatrixXd L = qr.matrixQR().triangularView<Eigen::Upper>().transpose();
  for (Eigen::Index k = 0; k < m; ++k)  // L D D L^T = L L^T for D = diag(+-1)
    if (L(k, k) < 0.0) L.col(k) = -L.col(k);
  return L;
}

Eigen::MatrixXd sample_joint_gaussian(const Eigen::VectorXd& mean, const Eigen::MatrixXd& C,
                                      int count, core::RngStream& rng) {
  if (count < 0) throw std::invalid_argument("sample_joint_gaussian: count must be >= 0");
  if (C.rows() != mean.size())
    throw std::invalid_argument("sample_joint_gaussian: mean and covariance sizes differ");
  double tried = 0.0;
  std::optional<JitteredCholesky> chol = jitter_ladder(C, tried);
  Eigen::MatrixXd L;
  if (chol) {
    L = std::move(chol->L);
  } else {
    try {
      L = psd_projection_factor(C);  // only where the jitter ladder fails (see the header)
    } catch (const std::runtime_error& e) {
      throw std::runtime_error("sample_joint_gaussian: " + jitter_failure(tried) + ", and " +
                               e.what());
    }
  }
  // count x m, row s = z_s: draw s uses the s-th block of m normals whatever count is.
  const Eigen::MatrixXd Z = rng.normal_matrix(count, mean.size());
  Eigen::MatrixXd F(mean.size(), count);
  if (mean.size() > 0 && count > 0) F.noalias() = L.triangularView<Eigen::Lower>() * Z.transpose();
  F.colwise() += mean;
  return F;
}

}  // namespace fbosim::surrogate

#include "algorithms/curator/curator.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::curator {

double omega(double epsilon, double delta, int r) {
  if (!(epsilon > 0 && std::isfinite(epsilon)))
    throw std::invalid_argument(fmt::format("curator: epsilon must be > 0, got {}", epsilon));
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("curator: delta must be in (0, 1), got {}", delta));
  if (r < 1) throw std::invalid_argument(fmt::format("curator: r must be >= 1, got {}", r));
  const double rr = r;
  // Alg. 1 line 5 [reconstructed]: 16 sqrt(r ln(2/delta)) ln(16 r / delta) / epsilon.
  return 16 * std::sqrt(rr * std::log(2 / delta)) * std::log(16 * rr / delta) / epsilon;
}

Normalised normalise(const Eigen::MatrixXd& X, double max_norm) {
  if (X.rows() < 2 || X.cols() < 1 || !X.allFinite())
    throw std::invalid_argument("curator: the inputs must be a finite n x d matrix with n >= 2");
  if (!(max_norm > 0 && std::isfinite(max_norm)))
    throw std::invalid_argument(fmt::format("curator: max_norm must be > 0, got {}", max_norm));
  Normalised out;
  out.centre = X.colwise().mean();
  out.X = X.rowwise() - out.centre;
  const double largest = out.X.rowwise().norm().maxCoeff();
  if (!(largest > 0)) throw std::invalid_argument("curator: every input is the same point");
  out.scale = max_norm / largest;
  out.X *= out.scale;
  return out;
}

Transform transform(const Eigen::MatrixXd& X, const CuratorOptions& o) {
  const Eigen::Index n = X.rows(), d = X.cols();
  if (d < 1 || n <= d || !X.allFinite())
    throw std::invalid_argument(
        fmt::format("curator: X must be a finite n x d matrix with n > d, got {} x {}", n, d));
  Transform t;
  t.omega = omega(o.epsilon, o.delta, o.r);
  const Eigen::MatrixXd Xc = X.rowwise() - X.colwise().mean();  // line 2
  // Line 4: X^T X = V S^2 V^T (thin SVD of the centred X; n > d).
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Xc.transpose() * Xc);
  if (eig.info() != Eigen::Success) throw std::runtime_error("curator: eigendecomposition failed");
  const Eigen::VectorXd s2 = eig.eigenvalues().reverse();  // descending
  const Eigen::MatrixXd V = eig.eigenvectors().rowwise().reverse();
  t.singular_values = s2.cwiseMax(0.0).cwiseSqrt();
  t.sigma_min = t.singular_values[d - 1];
  t.lifted = t.sigma_min < t.omega;  // line 6
  if (!t.lifted) {
    t.X_tilde = Xc;  // line 7
    return t;
  }
  // Line 9: every singular value s becomes lift(s); the singular vectors stay.
  const double tiny = 1e-12 * std::max(1.0, t.singular_values[0]);
  if (!(t.sigma_min > tiny))
    throw std::invalid_argument(fmt::format(
        "curator: the centred inputs are rank-deficient (smallest singular value {}): the lift of "
        "Algorithm 1 line 9 is not determined (the singular vectors of a zero singular value are "
        "arbitrary); add inputs that span every dimension",
        t.sigma_min));
  Eigen::VectorXd gain(d);
  for (Eigen::Index k = 0; k < d; ++k) {
    const double s = t.singular_values[k];
    const double lifted =
        o.lift == Lift::paper ? std::sqrt(s * s + t.omega * t.omega) : s + t.omega;
    gain[k] = lifted / s;
  }
  t.X_tilde = Xc * (V * gain.asDiagonal() * V.transpose());  // U S' V^T = X V S^-1 S' V^T
  return t;
}

Release release(const Eigen::MatrixXd& X, const CuratorOptions& o, core::RngStream& rng) {
  Release out;
  out.transform = transform(X, o);
  const Eigen::MatrixXd M = rng.normal_matrix(X.cols(), o.r);  // line 3
  out.Z = out.transform.X_tilde * M / std::sqrt(static_cast<double>(o.r));
  return out;
}

}  // namespace fbosim::curator

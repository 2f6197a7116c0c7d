#include "algorithms/gp/kernel.hpp"

#include <cmath>
#include <stdexcept>

#include "algorithms/gp/se_kernel.hpp"

namespace fbosim::gp {

std::string to_string(KernelFamily f) { return std::string(kKernelFamilyNames.name(f)); }

double matern_nu(KernelFamily f) {
  switch (f) {
    case KernelFamily::matern32:
      return 1.5;
    case KernelFamily::matern52:
      return 2.5;
    case KernelFamily::se:
      break;
  }
  return 0.0;
}

double kernel_profile(KernelFamily f, double r2) {
  switch (f) {
    case KernelFamily::matern32: {
      const double a = std::sqrt(3.0 * r2);  // sqrt(3) r
      return (1.0 + a) * std::exp(-a);
    }
    case KernelFamily::matern52: {
      const double a = std::sqrt(5.0 * r2);  // sqrt(5) r
      return (1.0 + a + a * a / 3.0) * std::exp(-a);
    }
    case KernelFamily::se:
      break;
  }
  return std::exp(-0.5 * r2);
}

double kernel_lengthscale_factor(KernelFamily f, double r2) {
  // d k / d log l_k = (dk/dr) (dr / d log l_k) with dr / d log l_k = -(x_k - x'_k)^2 / (l_k^2 r):
  // Matern-3/2: dk/dr = -3 r exp(-sqrt(3) r); Matern-5/2: dk/dr = -5/3 r (1 + sqrt(5) r)
  // exp(-sqrt(5) r); SE: dk/dr = -r exp(-r^2/2). The r cancels.
  switch (f) {
    case KernelFamily::matern32:
      return 3.0 * std::exp(-std::sqrt(3.0 * r2));
    case KernelFamily::matern52: {
      const double a = std::sqrt(5.0 * r2);
      return 5.0 / 3.0 * (1.0 + a) * std::exp(-a);
    }
    case KernelFamily::se:
      break;
  }
  return std::exp(-0.5 * r2);
}

Eigen::MatrixXd scale_inputs(const Eigen::MatrixXd& X, const Eigen::VectorXd& lengthscales) {
  if (lengthscales.size() == 1) return X / lengthscales[0];
  if (lengthscales.size() != X.cols())
    throw std::invalid_argument("gp::scale_inputs: need one length scale or one per dimension");
  return X * lengthscales.cwiseInverse().asDiagonal();
}

Eigen::MatrixXd kernel_matrix(const KernelHyper& h, const Eigen::MatrixXd& A,
                              const Eigen::MatrixXd& B) {
  const Eigen::MatrixXd R2 =
      squared_distances(scale_inputs(A, h.lengthscales), scale_inputs(B, h.lengthscales));
  return h.signal_var * R2.unaryExpr([f = h.family](double r2) { return kernel_profile(f, r2); });
}

}  // namespace fbosim::gp

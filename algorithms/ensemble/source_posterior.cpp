#include "algorithms/ensemble/source_posterior.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>
#include <string>

#include "algorithms/surrogate/joint_gaussian.hpp"

namespace fbosim::ensemble {

namespace {
[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("SourcePosterior: " + what);
}
constexpr double kBoundSlack = 1e-8;  // relative enlargement of variance_bound()
}  // namespace

SourcePosterior::SourcePosterior(Eigen::VectorXd nu, const Eigen::MatrixXd& sigma_inverse,
                                 double noise_var, std::optional<double> incumbent)
    : nu_(std::move(nu)), noise_var_(noise_var), incumbent_(incumbent) {
  const Eigen::Index M = nu_.size();
  if (M < 1) fail("nu must have M >= 1 entries");
  if (sigma_inverse.rows() != M || sigma_inverse.cols() != M)
    fail("sigma_inverse must be " + std::to_string(M) + " x " + std::to_string(M) + ", got " +
         std::to_string(sigma_inverse.rows()) + " x " + std::to_string(sigma_inverse.cols()));
  if (!nu_.allFinite() || !sigma_inverse.allFinite()) fail("nu and sigma_inverse must be finite");
  if (!(noise_var > 0.0) || !std::isfinite(noise_var))
    fail("noise_var (lambda) must be finite and > 0, got " + std::to_string(noise_var));
  if (incumbent_ && !std::isfinite(*incumbent_))
    fail("incumbent must be finite, got " + std::to_string(*incumbent_));
  const double scale = sigma_inverse.cwiseAbs().maxCoeff();
  const double asym = (sigma_inverse - sigma_inverse.transpose()).cwiseAbs().maxCoeff();
  if (asym > 1e-6 * scale)
    fail("sigma_inverse is not symmetric: max |A - A^T| = " + std::to_string(asym) +
         " for max |A| = " + std::to_string(scale));
  sigma_inverse_ = 0.5 * (sigma_inverse + sigma_inverse.transpose());
  factorise("constructor");
  // Largest eigenvalue of the matrix actually used (O(M^3), once per message).
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(sigma_inverse_, Eigen::EigenvaluesOnly);
  variance_bound_ = noise_var_ * eig.eigenvalues().maxCoeff() * (1.0 + kBoundSlack);
}

void SourcePosterior::factorise(const char* who) {
  surrogate::JitteredCholesky chol;
  try {
    chol = surrogate::robust_cholesky(sigma_inverse_);
  } catch (const std::exception& e) {
    fail(std::string(who) + ": sigma_inverse is not positive definite (" + e.what() + ")");
  }
  jitter_ = chol.jitter;
  sigma_inverse_.diagonal().array() += jitter_;
  lower_ = std::move(chol.L);
  upper_ = lower_.transpose();
}

SourcePosterior SourcePosterior::linear_combination(
    const std::vector<const SourcePosterior*>& parts, const std::vector<double>& a) {
  if (parts.empty() || parts.size() != a.size())
    fail("linear_combination: need as many coefficients as parts (>= 1)");
  const Eigen::Index M = parts[0]->size();
  SourcePosterior c;
  c.nu_ = Eigen::VectorXd::Zero(M);
  c.sigma_inverse_ = Eigen::MatrixXd::Zero(M, M);
  for (std::size_t m = 0; m < parts.size(); ++m) {
    if (parts[m]->size() != M) fail("linear_combination: parts of different M");
    if (!std::isfinite(a[m])) fail("linear_combination: coefficients must be finite");
    c.nu_ += a[m] * parts[m]->nu_;
    // Cov(sum a omega) = sum a^2 lambda Sigma^-1 for independent omegas; with noise_var 1.
    c.sigma_inverse_ += (a[m] * a[m] * parts[m]->noise_var_) * parts[m]->sigma_inverse_;
    c.variance_bound_ += a[m] * a[m] * parts[m]->variance_bound_;
  }
  c.noise_var_ = 1.0;
  c.factorise("linear_combination");
  c.variance_bound_ += c.jitter_ * (1.0 + kBoundSlack);
  return c;
}

double SourcePosterior::variance(const Eigen::VectorXd& phi, Workspace& ws) const {
  ws.u.resize(nu_.size());
  ws.u.noalias() = upper_.triangularView<Eigen::Upper>() * phi;
  return noise_var_ * ws.u.squaredNorm();
}

void SourcePosterior::variance_direction(Workspace& ws) const {
  ws.w.resize(nu_.size());
  ws.w.noalias() = lower_.triangularView<Eigen::Lower>() * ws.u;
  ws.w *= noise_var_;
}

surrogate::PointPrediction SourcePosterior::predict_point(const FeaturePoint& p,
                                                          Eigen::VectorXd* grad_mean,
                                                          Eigen::VectorXd* grad_var,
                                                          Workspace& ws) const {
  if (p.phi().size() != nu_.size()) fail("predict_point: features of another M");
  surrogate::PointPrediction out{mean(p.phi()), variance(p.phi(), ws)};
  if (grad_mean) p.chain(nu_, *grad_mean);
  if (grad_var) {
    variance_direction(ws);
    p.chain(ws.w, *grad_var);
    *grad_var *= 2.0;
  }
  return out;
}

Eigen::VectorXd SourcePosterior::mean(const Eigen::MatrixXd& Phi) const {
  if (Phi.cols() != nu_.size()) fail("mean: Phi must have M columns");
  Eigen::VectorXd mu(Phi.rows());
  if (Phi.rows() > 0) mu.noalias() = Phi * nu_;
  return mu;
}

Eigen::MatrixXd SourcePosterior::whiten(const Eigen::MatrixXd& Phi) const {
  if (Phi.cols() != nu_.size()) fail("whiten: Phi must have M columns");
  Eigen::MatrixXd W(Phi.rows(), Phi.cols());
  if (Phi.rows() > 0) W.noalias() = Phi * lower_.triangularView<Eigen::Lower>();
  return W;
}

surrogate::Prediction SourcePosterior::predict(const Eigen::MatrixXd& Phi) const {
  return {mean(Phi), noise_var_ * whiten(Phi).rowwise().squaredNorm()};
}

Eigen::MatrixXd SourcePosterior::sample(const Eigen::MatrixXd& Phi, int count,
                                        core::RngStream& rng) const {
  if (count < 0) fail("sample: count must be >= 0");
  if (Phi.cols() != nu_.size()) fail("sample: Phi must have M columns");
  // Row s of Z is draw s's z, so earlier draws do not depend on count.
  const Eigen::MatrixXd Z = rng.normal_matrix(count, nu_.size());
  Eigen::MatrixXd F(Phi.rows(), count);
  if (Phi.rows() == 0 || count == 0) return F;
  // Phi omega_s = Phi nu + sqrt(lambda) (Phi L) z_s.
  F.noalias() = std::sqrt(noise_var_) * whiten(Phi) * Z.transpose();
  F.colwise() += mean(Phi);
  return F;
}

}  // namespace fbosim::ensemble

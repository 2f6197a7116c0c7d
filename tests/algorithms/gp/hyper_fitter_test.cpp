#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Cholesky>

#include "algorithms/gp/hyper_fitter.hpp"
#include "algorithms/gp/marginal_likelihood.hpp"

using namespace fbosim;
using gp::SeHyper;

namespace {
// A draw from GP(0, SE(h)) + noise at X, by Cholesky of the full covariance.
Eigen::VectorXd gp_sample(const Eigen::MatrixXd& X, const SeHyper& h, core::RngStream& rng) {
  Eigen::MatrixXd K = gp::se_kernel(X, X, h.lengthscale, h.signal_var);
  K.diagonal().array() += h.noise_var;
  return Eigen::LLT<Eigen::MatrixXd>(K).matrixL() * rng.normal_vector(X.rows());
}

bool inside(const SeHyper& h, const gp::HyperFitter::Options& o) {
  return h.lengthscale >= o.min_lengthscale && h.lengthscale <= o.max_lengthscale &&
         h.signal_var >= o.min_signal_var && h.signal_var <= o.max_signal_var &&
         h.noise_var >= o.min_noise_var && h.noise_var <= o.max_noise_var;
}
}  // namespace

TEST_CASE("the fitter recovers known hyperparameters and never loses to its start") {
  core::RngStream data(3);
  const SeHyper truth{0.2, 1.0, 0.01};
  const Eigen::MatrixXd X = data.uniform_matrix(100, 1);
  const Eigen::VectorXd y = gp_sample(X, truth, data);
  const SeHyper start{1.0, 0.1, 1e-6};  // the authors' code's start
  core::RngStream rng(4);
  const gp::HyperFitter fitter;
  const SeHyper fit = fitter.fit(X, y, start, rng);
  CHECK(fit.lengthscale == Approx(0.2).epsilon(0.3));
  CHECK(fit.noise_var == Approx(0.01).epsilon(0.6));
  CHECK(inside(fit, fitter.options()));
  Eigen::Vector3d g;
  const double best = gp::log_marginal_likelihood(X, y, fit, &g);
  CHECK(best >= gp::log_marginal_likelihood(X, y, start));
  CHECK(best >= gp::log_marginal_likelihood(X, y, truth) - 1e-6);
  // An interior optimum: the gradient (R&W eq. 5.9) is ~0 there.
  CHECK(g.cwiseAbs().maxCoeff() < 1e-2);

  core::RngStream again(4);
  const SeHyper fit2 = fitter.fit(X, y, start, again);
  CHECK(fit2.lengthscale == fit.lengthscale);
  CHECK(fit2.signal_var == fit.signal_var);
  CHECK(fit2.noise_var == fit.noise_var);
}

TEST_CASE("the fitter in 2-D recovers the length scale") {
  core::RngStream data(8);
  const SeHyper truth{0.3, 2.0, 0.02};
  const Eigen::MatrixXd X = data.uniform_matrix(120, 2);
  const Eigen::VectorXd y = gp_sample(X, truth, data);
  core::RngStream rng(9);
  const SeHyper fit = gp::HyperFitter().fit(X, y, {1.0, 0.1, 1e-6}, rng);
  CHECK(fit.lengthscale == Approx(0.3).epsilon(0.3));
  CHECK(gp::log_marginal_likelihood(X, y, fit) >= gp::log_marginal_likelihood(X, y, truth) - 1e-6);
}

TEST_CASE("a start outside the box is clamped and never beaten by the result") {
  core::RngStream data(10);
  const Eigen::MatrixXd X = data.uniform_matrix(20, 1);
  const Eigen::VectorXd y = gp_sample(X, {0.1, 1.0, 0.01}, data);
  gp::HyperFitter::Options o;
  o.restarts = 0;
  o.max_iterations = 2;  // too few to converge: the result must still beat the clamped start
  const gp::HyperFitter fitter(o);
  core::RngStream rng(1);
  const SeHyper fit = fitter.fit(X, y, {100.0, 1e3, 1e-9}, rng);
  const SeHyper clamped{o.max_lengthscale, o.max_signal_var, o.min_noise_var};
  CHECK(inside(fit, o));
  CHECK(gp::log_marginal_likelihood(X, y, fit) >= gp::log_marginal_likelihood(X, y, clamped));
}

TEST_CASE("degenerate data (duplicates, tiny noise) gives finite hyperparameters") {
  Eigen::MatrixXd X(6, 1);
  X << 0.1, 0.1, 0.1, 0.5, 0.5, 0.9;
  Eigen::VectorXd y(6);
  y << 1, 1.1, 0.9, 0, 0.1, 2;
  core::RngStream rng(5);
  const gp::HyperFitter fitter;
  const SeHyper fit = fitter.fit(X, y, {1.0, 0.1, 1e-6}, rng);
  CHECK(std::isfinite(fit.lengthscale));
  CHECK(std::isfinite(fit.signal_var));
  CHECK(inside(fit, fitter.options()));
  CHECK(std::isfinite(gp::log_marginal_likelihood(X, y, fit)));

  // All points identical with y constant: the kernel matrix is rank one plus tiny noise.
  const Eigen::MatrixXd same = Eigen::MatrixXd::Constant(8, 2, 0.3);
  const SeHyper fit2 = fitter.fit(same, Eigen::VectorXd::Constant(8, 0.5), {1.0, 0.1, 1e-6}, rng);
  CHECK(inside(fit2, fitter.options()));
  CHECK(std::isfinite(gp::log_marginal_likelihood(same, Eigen::VectorXd::Constant(8, 0.5), fit2)));
}

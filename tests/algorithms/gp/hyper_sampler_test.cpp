// Slice sampling (Neal 2003) and the hyperparameter posterior sampler (issue 29): the chains'
// stationary distributions against closed forms and against a quadrature of the exact posterior.
// Monte Carlo error by batch means (50 batches): a chain passes when its estimate is within
// 4 standard errors (plus the quadrature's error) of the truth, and the standard error itself
// is small, so a check cannot pass on a chain too short to say anything.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include <Eigen/Cholesky>

#include "algorithms/gp/hyper_sampler.hpp"
#include "algorithms/gp/slice_sampler.hpp"

using namespace fbosim;

namespace {

struct Estimate {
  double mean, se;
};

// Mean of v and its batch-means standard error (50 equal batches).
Estimate batch_means(const Eigen::VectorXd& v) {
  const Eigen::Index batches = 50, len = v.size() / batches;
  Eigen::VectorXd m(batches);
  for (Eigen::Index b = 0; b < batches; ++b) m[b] = v.segment(b * len, len).mean();
  const double mean = m.mean();
  const double var = (m.array() - mean).square().sum() / static_cast<double>(batches - 1);
  return {mean, std::sqrt(var / static_cast<double>(batches))};
}

void check_close(const Eigen::VectorXd& v, double truth, double max_se, double extra = 0.0) {
  const Estimate e = batch_means(v);
  INFO("estimate " << e.mean << " se " << e.se << " truth " << truth);
  CHECK(std::abs(e.mean - truth) < 4 * e.se + extra);
  CHECK(e.se < max_se);
}

// log N(x; 0, S) up to a constant, S = [[1, rho], [rho, 1]] scaled by (s1, s2).
double log_gauss2(const Eigen::VectorXd& x, double s1, double s2, double rho) {
  const double a = x[0] / s1, b = x[1] / s2;
  return -(a * a - 2 * rho * a * b + b * b) / (2 * (1 - rho * rho));
}

// log p(y | X, l, s, n) for the isotropic SE kernel, written out (Rasmussen & Williams eq. 5.8)
// with a dense Cholesky: independent of gp::log_marginal_likelihood.
double dense_lml(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double l, double s,
                 double noise) {
  const Eigen::Index n = X.rows();
  Eigen::MatrixXd K(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      K(i, j) =
          s * std::exp(-(X.row(i) - X.row(j)).squaredNorm() / (2 * l * l)) + (i == j ? noise : 0.0);
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  if (llt.info() != Eigen::Success) return -INFINITY;
  const Eigen::VectorXd a = llt.matrixL().solve(y);
  const double logdet = 2 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
  return -0.5 * a.squaredNorm() - 0.5 * logdet -
         0.5 * static_cast<double>(n) * std::log(2 * std::numbers::pi);
}

}  // namespace

TEST_CASE("slice sampling leaves a correlated 2-D Gaussian invariant") {
  const double s1 = 2.0, s2 = 0.5, rho = 0.8;
  const gp::SliceSampler::LogDensity f = [&](const Eigen::VectorXd& x) {
    return log_gauss2(x, s1, s2, rho);
  };
  core::RngStream rng(11);
  const Eigen::MatrixXd c =
      gp::SliceSampler().chain(f, Eigen::Vector2d(5.0, -3.0), 20000, 100, 1, rng);
  check_close(c.col(0), 0.0, 0.1);
  check_close(c.col(1), 0.0, 0.025);
  check_close(c.col(0).array().square().matrix(), s1 * s1, 0.25);
  check_close(c.col(1).array().square().matrix(), s2 * s2, 0.015);
  check_close(c.col(0).cwiseProduct(c.col(1)), rho * s1 * s2, 0.05);
}

TEST_CASE("slice sampling in log space with the Jacobian gives a Gamma's moments") {
  // theta ~ Gamma(3, rate 2): in u = log theta the density is theta^3 exp(-2 theta).
  const gp::GammaPrior g{3.0, 2.0};
  const gp::SliceSampler::LogDensity f = [&](const Eigen::VectorXd& u) {
    return g.log_density(std::exp(u[0])) + u[0];
  };
  core::RngStream rng(12);
  const Eigen::VectorXd theta = gp::SliceSampler()
                                    .chain(f, Eigen::VectorXd::Zero(1), 20000, 100, 1, rng)
                                    .col(0)
                                    .array()
                                    .exp();
  check_close(theta, 1.5, 0.02);                                     // a / b
  check_close((theta.array() - 1.5).square().matrix(), 0.75, 0.03);  // a / b^2
  CHECK_THROWS_AS(gp::SliceSampler().chain(f, Eigen::VectorXd::Constant(1, NAN), 1, 0, 1, rng),
                  std::invalid_argument);
  CHECK_THROWS_AS(gp::SliceSampler().chain(f, Eigen::VectorXd::Zero(1), 0, 0, 1, rng),
                  std::invalid_argument);
}

TEST_CASE("without data the hyperparameter chain samples the Gamma priors") {
  gp::HyperSampler::Options o;
  o.samples = 20000;
  o.burn_in = 100;
  o.lengthscale = {2.0, 4.0};  // mean 0.5, variance 0.125
  o.signal_var = {3.0, 1.0};   // mean 3, variance 3
  o.noise_var = {1.5, 30.0};   // mean 0.05, variance 1/600
  const gp::KernelHyper start{gp::KernelFamily::matern52, Eigen::VectorXd::Ones(1), 1.0, 0.1};
  core::RngStream rng(13);
  const Eigen::MatrixXd c =
      gp::HyperSampler(o).chain(Eigen::MatrixXd(0, 1), Eigen::VectorXd(0), start, rng);
  REQUIRE(c.cols() == 3);
  const gp::GammaPrior priors[] = {o.lengthscale, o.signal_var, o.noise_var};
  for (int k = 0; k < 3; ++k) {
    const double mean = priors[k].shape / priors[k].rate;
    const double var = mean / priors[k].rate;
    INFO("coordinate " << k);
    check_close(c.col(k), mean, 0.03 * mean);
    check_close((c.col(k).array() - mean).square().matrix(), var, 0.08 * var);
  }
  // The chain stays in its box, and a start outside it is clamped into it.
  CHECK(c.col(0).maxCoeff() <= o.max_lengthscale);
  CHECK(c.col(2).minCoeff() >= o.min_noise_var);
  gp::HyperSampler::Options tight = o;
  tight.samples = 5;
  tight.max_noise_var = 1e-3;
  core::RngStream r2(16);
  const Eigen::MatrixXd t =
      gp::HyperSampler(tight).chain(Eigen::MatrixXd(0, 1), Eigen::VectorXd(0), start, r2);
  CHECK(t.col(2).maxCoeff() <= 1e-3);
  // The defaults are DP-FTS-DE's gp_mcmc: Gamma.from_EV(1, 10) is shape 1^2/10, rate 1/10.
  const gp::HyperSampler::Options d;
  CHECK(d.lengthscale.shape == 0.1);
  CHECK(d.lengthscale.rate == 0.1);
  CHECK(d.noise_var.shape == 0.1);
  CHECK(d.samples == 300);
  CHECK(d.burn_in == 200);
}

TEST_CASE("with data the posterior mean of log l matches a quadrature of the exact posterior") {
  // Eight noisy points of a smooth function; all three hyperparameters unknown. The truth: the
  // posterior mean of log l by a 3-D midpoint rule on log l, log s^2, log sigma^2 of
  // exp(log p(y | theta) + log p(theta) + sum log theta) (the density in the logs).
  Eigen::MatrixXd X(8, 1);
  X << 0.05, 0.18, 0.3, 0.41, 0.55, 0.67, 0.8, 0.93;
  Eigen::VectorXd y = (6.0 * X.col(0).array()).sin().matrix();
  y += Eigen::VectorXd::LinSpaced(8, -0.1, 0.1).array().sin().matrix();
  gp::HyperSampler::Options o;
  o.samples = 20000;
  o.burn_in = 200;
  o.lengthscale = {2.0, 4.0};
  o.signal_var = {2.0, 1.0};
  o.noise_var = {2.0, 40.0};
  const int G = 70;
  // Inside the chain's box (l <= 10, noise_var <= 1; the posterior mass beyond is < 1e-9).
  const double lo[3] = {-5.0, -5.0, -9.0}, hi[3] = {std::log(10.0), 3.5, 0.0};
  double mass = 0.0, first = 0.0, peak = -INFINITY;
  std::vector<double> logs(static_cast<std::size_t>(G * G * G));
  const auto node = [&](int k, int i) { return lo[k] + (hi[k] - lo[k]) * (i + 0.5) / G; };
  for (int a = 0; a < G; ++a)
    for (int b = 0; b < G; ++b)
      for (int c = 0; c < G; ++c) {
        const double u[3] = {node(0, a), node(1, b), node(2, c)};
        double lp = dense_lml(X, y, std::exp(u[0]), std::exp(u[1]), std::exp(u[2]));
        lp += o.lengthscale.log_density(std::exp(u[0])) + u[0];
        lp += o.signal_var.log_density(std::exp(u[1])) + u[1];
        lp += o.noise_var.log_density(std::exp(u[2])) + u[2];
        logs[static_cast<std::size_t>((a * G + b) * G + c)] = lp;
        peak = std::max(peak, lp);
      }
  for (int a = 0; a < G; ++a)
    for (int b = 0; b < G; ++b)
      for (int c = 0; c < G; ++c) {
        const double w = std::exp(logs[static_cast<std::size_t>((a * G + b) * G + c)] - peak);
        mass += w;
        first += w * node(0, a);
      }
  const double truth = first / mass;
  // The generic density (every kernel but the isotropic SE one, whose chain takes the tiled
  // path) equals the quadrature's integrand.
  for (const Eigen::Vector3d& u :
       {Eigen::Vector3d(-1.2, 0.1, -3.0), Eigen::Vector3d(0.5, -2, -6)}) {
    const double want = dense_lml(X, y, std::exp(u[0]), std::exp(u[1]), std::exp(u[2])) +
                        o.lengthscale.log_density(std::exp(u[0])) + u[0] +
                        o.signal_var.log_density(std::exp(u[1])) + u[1] +
                        o.noise_var.log_density(std::exp(u[2])) + u[2];
    CHECK(gp::HyperSampler(o).log_posterior(X, y, gp::KernelFamily::se, u) ==
          Approx(want).epsilon(1e-10));
  }

  const gp::KernelHyper start{gp::KernelFamily::se, Eigen::VectorXd::Ones(1), 1.0, 0.1};
  core::RngStream rng(14);
  const Eigen::MatrixXd c = gp::HyperSampler(o).chain(X, y, start, rng);
  const Eigen::VectorXd log_l = c.col(0).array().log();
  // The midpoint rule's error on this smooth density is far below 0.01.
  check_close(log_l, truth, 0.03, 0.01);

  // The same stream gives the same chain; sample() is its mean.
  o.samples = 50;
  core::RngStream a1(15), a2(15);
  const Eigen::MatrixXd c50 = gp::HyperSampler(o).chain(X, y, start, a1);
  const gp::KernelHyper m = gp::HyperSampler(o).sample(X, y, start, a2);
  CHECK(m.lengthscales[0] == c50.col(0).mean());
  CHECK(m.signal_var == c50.col(1).mean());
  CHECK(m.noise_var == c50.col(2).mean());
  CHECK(m.family == gp::KernelFamily::se);
}

// LocalThompson's `local_ts.redraw: refit` (issue #13): the step is the argmax of a sample from
// the posterior on the agent's kept features, which follow the hyperparameters.
#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include "../grid_domain.hpp"
#include "../surrogate/kernel_by_hand.hpp"
#include "algorithms/acquisition/direct_maximiser.hpp"
#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/rff/blr_sample.hpp"
#include "algorithms/rff/fixed_feature_blr.hpp"
#include "algorithms/rff/grid_argmax.hpp"

using namespace fbosim;
using agents::LocalThompson;
using agents::LocalTsOptions;
using agents::Redraw;
using testing::grid_domain;

namespace {
double objective(const Eigen::VectorXd& x) { return std::sin(12 * x[0]) + 0.3 * x[0]; }

// The step of the refit mode written out: base features from the agent's stream, rescaled to
// the hyperparameters, conditioned on every observation from scratch, one draw, grid argmax.
Eigen::VectorXd expected_step(const LocalThompson& lt, const core::Domain& d,
                              const core::RngFactory& streams, int id, core::RngStream rng) {
  core::RngStream base = streams.stream("agent.local_features", static_cast<std::uint64_t>(id));
  rff::FixedFeatureBlr blr(rff::RandomFeatures::draw(d.dim, lt.options().features, 1.0, 1.0, base));
  const gp::SeHyper& h = lt.hyper();
  blr.set_hyper(h.lengthscale, h.signal_var, std::max(h.noise_var, lt.options().noise_floor));
  const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(
      lt.outputs().data(), static_cast<Eigen::Index>(lt.outputs().size()));
  blr.add(lt.data(), y);
  const Eigen::VectorXd omega = blr.sample(rng);
  return d.grid.row(rff::grid_argmax(blr.features(), d.grid, omega)).transpose();
}
}  // namespace

TEST_CASE("local_ts.redraw parses step and refit, and step is the default") {
  CHECK(LocalTsOptions{}.redraw == Redraw::step);
  CHECK(agents::parse_redraw("refit") == Redraw::refit);
  CHECK(agents::to_string(agents::parse_redraw("step")) == "step");
  CHECK_THROWS_WITH(agents::parse_redraw("never"), Catch::Contains("never"));
}

TEST_CASE("refit: each step samples the posterior of the kept features on all observations") {
  const core::Domain d = grid_domain(301);
  LocalTsOptions o;
  o.features = 20;  // fewer features than observations by the end: both sides of n = M
  o.redraw = Redraw::refit;
  o.hyper = {0.1, 1.0, 0.01};
  const int id = 3;
  LocalThompson lt(id, d, o);
  const core::RngFactory streams(7, 0);
  lt.observe(d.grid.row(150).transpose(), objective(d.grid.row(150).transpose()));
  for (int t = 0; t < 40; ++t) {
    core::RngStream rng = streams.stream("agent.step", id, t);
    const Eigen::VectorXd want = expected_step(lt, d, streams, id, rng);
    const Eigen::VectorXd x = lt.step(rng, streams);
    INFO("step " << t);
    CHECK(x == want);
    lt.observe(x, objective(x));
  }
}

TEST_CASE("refit: a hyperparameter fit rescales the features and rebuilds the posterior") {
  const core::Domain d = grid_domain(201);
  LocalTsOptions o;
  o.features = 30;
  o.redraw = Redraw::refit;
  o.fit_hyper = true;
  o.refit_every = 5;
  o.fit.restarts = 2;
  o.fit.max_iterations = 20;
  o.hyper = {1.0, 0.1, 1e-6};
  const int id = 1;
  LocalThompson lt(id, d, o);
  const core::RngFactory streams(8, 1);
  for (int k = 0; k < 3; ++k) {
    const Eigen::VectorXd x = d.grid.row(40 * k + 7).transpose();
    lt.observe(x, objective(x));
  }
  int changes = 0;
  gp::SeHyper before = lt.hyper();
  for (int t = 0; t < 14; ++t) {
    core::RngStream rng = streams.stream("agent.step", id, t);
    const gp::SeHyper h = lt.current_hyper(streams);  // the fit a step would make
    changes += h.lengthscale != before.lengthscale || h.signal_var != before.signal_var ||
               h.noise_var != before.noise_var;
    before = h;
    const Eigen::VectorXd want = expected_step(lt, d, streams, id, rng);
    const Eigen::VectorXd x = lt.step(rng, streams);
    INFO("step " << t);
    CHECK(x == want);
    lt.observe(x, objective(x));
  }
  CHECK(changes >= 2);  // refits at 5, 10 and 15 observations
}

TEST_CASE("refit: the box maximiser and the exact model still run, deterministically") {
  core::Domain box;
  box.dim = 2;
  LocalTsOptions o;
  o.features = 25;
  o.redraw = Redraw::refit;
  o.maximiser.random_points = 200;
  o.maximiser.starts = 2;
  const core::RngFactory streams(9, 0);
  LocalThompson a(0, box, o), b(0, box, o);
  for (int t = 0; t < 6; ++t) {
    core::RngStream ra = streams.stream("agent.step", 0, t), rb = ra;
    const Eigen::VectorXd x = a.step(ra, streams), y = b.step(rb, streams);
    CHECK(x == y);
    CHECK((x.array() >= 0).all());
    CHECK((x.array() <= 1).all());
    a.observe(x, x.sum());
    b.observe(y, y.sum());
  }
  const core::Domain d = grid_domain(101);
  o.model = agents::OwnModel::exact;
  LocalThompson exact(0, d, o);
  exact.observe(d.grid.row(3).transpose(), 0.5);
  core::RngStream rng(3);
  const Eigen::VectorXd x = exact.step(rng, streams);
  CHECK(x.size() == 1);
}

TEST_CASE("acquisition.method direct: the own step on a box is DIRECT's maximiser of the sample") {
  core::Domain box;
  box.dim = 2;
  LocalTsOptions o;
  o.features = 25;
  o.redraw = Redraw::refit;
  o.hyper = {0.2, 1.0, 0.01};
  o.acquisition.method = acq::Method::direct;
  o.acquisition.direct.max_evaluations = 2000;
  const int id = 2;
  LocalThompson lt(id, box, o);
  const core::RngFactory streams(9, 0);
  lt.observe(Eigen::Vector2d(0.3, 0.7), 0.5);
  for (int t = 0; t < 4; ++t) {
    core::RngStream rng = streams.stream("agent.step", id, t), copy = rng;
    // The refit step written out, maximised by DIRECT on the unit box.
    core::RngStream base = streams.stream("agent.local_features", static_cast<std::uint64_t>(id));
    rff::FixedFeatureBlr blr(rff::RandomFeatures::draw(2, o.features, 1.0, 1.0, base));
    blr.set_hyper(o.hyper.lengthscale, o.hyper.signal_var,
                  std::max(o.hyper.noise_var, o.noise_floor));
    const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(
        lt.outputs().data(), static_cast<Eigen::Index>(lt.outputs().size()));
    blr.add(lt.data(), y);
    const Eigen::VectorXd omega = blr.sample(copy);
    const Eigen::VectorXd want = acq::DirectMaximiser(o.acquisition.direct)
                                     .maximise(blr.features(), omega, core::Box::unit(2))
                                     .x;
    const Eigen::VectorXd x = lt.step(rng, streams);
    INFO("step " << t);
    CHECK(x == want);
    CHECK(rng.uniform() == copy.uniform());  // DIRECT drew nothing after the sample
    lt.observe(x, x.sum());
  }
}

TEST_CASE("exact: the circulant sampler of a uniform grid picks points as the dense sampler does") {
  // The same data on a uniform grid (circulant path) and on the same grid with one point moved
  // by 1e-9 (no longer uniform: the dense joint sample); the argmax frequencies over 4000 steps
  // agree within 5 standard errors per point.
  const int G = 15;
  core::Domain uniform = grid_domain(G), dense = grid_domain(G);
  dense.grid(G - 1, 0) -= 1e-9;
  LocalTsOptions o;
  o.model = agents::OwnModel::exact;
  o.hyper = {0.15, 1.0, 0.05};
  LocalThompson a(0, uniform, o), b(0, dense, o);
  for (int j : {2, 5, 11}) {
    a.observe(uniform.grid.row(j).transpose(), objective(uniform.grid.row(j)));
    b.observe(dense.grid.row(j).transpose(), objective(uniform.grid.row(j)));
  }
  const core::RngFactory streams(4, 0);
  const int steps = 4000;
  Eigen::VectorXd pa = Eigen::VectorXd::Zero(G), pb = Eigen::VectorXd::Zero(G);
  core::RngStream ra(21), rb(22);
  for (int s = 0; s < steps; ++s) {
    const Eigen::VectorXd xa = a.step(ra, streams), xb = b.step(rb, streams);
    pa[std::lround(xa[0] * (G - 1))] += 1.0 / steps;
    pb[std::lround(xb[0] * (G - 1))] += 1.0 / steps;
  }
  for (int j = 0; j < G; ++j) {
    const double p = 0.5 * (pa[j] + pb[j]);
    CHECK(std::abs(pa[j] - pb[j]) <= 5 * std::sqrt(2 * p * (1 - p) / steps) + 1e-12);
  }
  CHECK(pa.maxCoeff() < 0.9);  // the samples do vary
}

// The counts n at which a schedule fits when the agent steps after its initial design and after
// every observation (the fit is lazy: due at an observation, made at the next step).
std::vector<int> fit_counts(agents::FitSchedule on, bool at_init, int init, int iterations) {
  core::Domain box;
  box.dim = 1;
  LocalTsOptions o;
  o.fit_hyper = true;
  o.fit.restarts = 0;
  o.fit.max_iterations = 5;
  o.refit_every = 5;
  o.refit_on = on;
  o.fit_at_init = at_init;
  LocalThompson lt(0, box, o, init);
  const core::RngFactory streams(3, 0);
  core::RngStream rng(7);
  for (int k = 0; k < init; ++k) {
    const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, rng.uniform());
    lt.observe(x, objective(x));
  }
  std::vector<int> counts;
  for (int i = 0; i < iterations; ++i) {
    const int before = lt.fitted_at();
    lt.current_hyper(streams);  // what the step of iteration i would fit
    if (lt.fitted_at() != before) counts.push_back(lt.fitted_at());
    const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, rng.uniform());
    lt.observe(x, objective(x));
  }
  return counts;
}

TEST_CASE("fit schedules: DP-FTS-DE's code (observation counts) and FTS's code (iterations)") {
  // FTS's maximize() written out (federated_bayesian_optimization.py): with init_points > 1 it
  // fits on the initial design, then after the i-th BO observation when i >= 5 and i % 5 == 0;
  // the fit serves the next query, whose data are the init + i + 1 points.
  const auto fts_code = [](int init, int iterations) {
    std::vector<int> n;
    if (init > 1) n.push_back(init);
    for (int i = 0; i + 1 < iterations; ++i)
      if (i >= 5 && i % 5 == 0) n.push_back(init + i + 1);
    return n;
  };
  // DP-FTS-DE's (bayesian_optimization_dp_fts_de.py): before each query when len(X) >= 5 and
  // len(X) % 5 == 0; nothing at the initialisation itself.
  const auto dp_fts_de_code = [](int init, int iterations) {
    std::vector<int> n;
    for (int i = 0; i < iterations; ++i)
      if (init + i >= 5 && (init + i) % 5 == 0) n.push_back(init + i);
    return n;
  };
  using agents::FitSchedule;
  CHECK(fit_counts(FitSchedule::iterations, true, 3, 30) == fts_code(3, 30));
  CHECK(fit_counts(FitSchedule::iterations, true, 3, 30) == std::vector<int>{3, 9, 14, 19, 24, 29});
  CHECK(fit_counts(FitSchedule::observations, false, 10, 30) == dp_fts_de_code(10, 30));
  CHECK(fit_counts(FitSchedule::observations, false, 10, 30) ==
        std::vector<int>{10, 15, 20, 25, 30, 35});
  CHECK(fit_counts(FitSchedule::observations, false, 3, 12) == std::vector<int>{5, 10});
  CHECK(fit_counts(FitSchedule::observations, true, 3, 12) == std::vector<int>{3, 5, 10});
  CHECK(fit_counts(FitSchedule::iterations, false, 3, 12) == std::vector<int>{9, 14});
  CHECK(fit_counts(FitSchedule::iterations, true, 1, 3).empty());  // one point: no fit (code)
  CHECK(agents::parse_fit_schedule("iterations") == FitSchedule::iterations);
  CHECK_THROWS_AS(agents::parse_fit_schedule("rounds"), std::invalid_argument);
}

// Issue 29: `local_ts.method: exact` with gp.kernel / gp.ard. The step's argmax frequencies
// against those of joint draws from the posterior written out (the kernel entry by entry, an LU
// solve, an eigendecomposition of the posterior covariance): within 5 standard errors per point.
namespace {
Eigen::VectorXd argmax_frequencies_by_hand(const gp::KernelHyper& h, const LocalThompson& lt,
                                           const Eigen::MatrixXd& grid, int steps,
                                           core::RngStream& rng) {
  const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(
      lt.outputs().data(), static_cast<Eigen::Index>(lt.outputs().size()));
  const fbosim::testing::DensePosterior d = fbosim::testing::dense_posterior(
      h, lt.data(), y, grid, std::max(h.noise_var, lt.options().noise_floor));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(d.cov);
  const Eigen::MatrixXd root =
      eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
  Eigen::VectorXd p = Eigen::VectorXd::Zero(grid.rows());
  for (int s = 0; s < steps; ++s) {
    Eigen::Index j;
    (d.mean + root * rng.normal_vector(grid.rows())).maxCoeff(&j);
    p[j] += 1.0 / steps;
  }
  return p;
}

Eigen::Index row_of(const Eigen::MatrixXd& grid, const Eigen::VectorXd& x) {
  for (Eigen::Index j = 0; j < grid.rows(); ++j)
    if (grid.row(j).transpose() == x) return j;
  FAIL("the step is not a grid point");
  return -1;
}

void check_same_frequencies(const Eigen::VectorXd& pa, const Eigen::VectorXd& pb, int steps) {
  for (Eigen::Index j = 0; j < pa.size(); ++j) {
    const double p = 0.5 * (pa[j] + pb[j]);
    CHECK(std::abs(pa[j] - pb[j]) <= 5 * std::sqrt(2 * p * (1 - p) / steps) + 1e-12);
  }
  CHECK(pa.maxCoeff() < 0.9);  // the samples do vary
}
}  // namespace

TEST_CASE("exact with a Matern kernel on a uniform grid samples the Matern posterior") {
  // The circulant path (an equally spaced 1-D grid).
  const int G = 15, steps = 4000;
  const core::Domain d = grid_domain(G);
  for (const gp::KernelFamily f : {gp::KernelFamily::matern32, gp::KernelFamily::matern52}) {
    INFO(gp::to_string(f));
    LocalTsOptions o;
    o.model = agents::OwnModel::exact;
    o.hyper = {0.15, 1.0, 0.05};
    o.kernel.family = f;
    LocalThompson lt(0, d, o);
    for (int j : {2, 5, 11}) lt.observe(d.grid.row(j).transpose(), objective(d.grid.row(j)));
    const core::RngFactory streams(4, 0);
    core::RngStream ra(31), rb(32);
    Eigen::VectorXd pa = Eigen::VectorXd::Zero(G);
    for (int s = 0; s < steps; ++s) pa[row_of(d.grid, lt.step(ra, streams))] += 1.0 / steps;
    const gp::KernelHyper h{f, Eigen::VectorXd::Constant(1, 0.15), 1.0, 0.05};
    check_same_frequencies(pa, argmax_frequencies_by_hand(h, lt, d.grid, steps, rb), steps);
  }
}

TEST_CASE("exact with fitted ARD length scales on a 2-D grid samples that posterior") {
  // The dense path (a 6 x 6 grid), after a marginal-likelihood fit of one length scale per
  // dimension on a function that varies along x_0 only.
  const int side = 6, steps = 3000;
  core::Domain d;
  d.dim = 2;
  d.grid.resize(side * side, 2);
  for (int a = 0; a < side; ++a)
    for (int b = 0; b < side; ++b) d.grid.row(a * side + b) << a / 5.0, b / 5.0;
  LocalTsOptions o;
  o.model = agents::OwnModel::exact;
  o.hyper = {0.3, 1.0, 0.01};
  o.kernel = {gp::KernelFamily::matern52, true};
  o.fit_hyper = true;
  o.fit.restarts = 2;
  o.refit_every = 10;
  LocalThompson lt(0, d, o);
  for (int j : {0, 3, 8, 14, 17, 20, 23, 27, 31, 35})
    lt.observe(d.grid.row(j).transpose(), objective(d.grid.row(j).transpose()));
  const core::RngFactory streams(5, 0);
  core::RngStream ra(33), rb(34);
  Eigen::VectorXd pa = Eigen::VectorXd::Zero(side * side);
  for (int s = 0; s < steps; ++s) pa[row_of(d.grid, lt.step(ra, streams))] += 1.0 / steps;
  REQUIRE(lt.fitted_at() == 10);
  const gp::KernelHyper h = lt.kernel_hyper();
  REQUIRE(h.lengthscales.size() == 2);
  CHECK(h.lengthscales[0] != h.lengthscales[1]);  // the fit did learn two length scales
  check_same_frequencies(pa, argmax_frequencies_by_hand(h, lt, d.grid, steps, rb), steps);
}

TEST_CASE("local_ts.beta theory: beta_t and the information gain against independent values") {
  // B + sigma sqrt(2 (gamma + 1 + log(4 / delta))), evaluated in Python's math module.
  CHECK(agents::theory_beta(1.0, 0.1, 2.5, 0.05) == Approx(1.3970397117335716).epsilon(1e-15));
  CHECK(agents::theory_beta(0.5, 0.3, 0.0, 0.5) == Approx(1.2445129129184869).epsilon(1e-15));
  // 1/2 log det(I + K / s2) = 1/2 sum log(1 + eig(K) / s2), K = A A^T.
  core::RngStream rng(4);
  Eigen::MatrixXd A(6, 3);
  for (Eigen::Index i = 0; i < A.size(); ++i) A.data()[i] = rng.normal();
  const Eigen::MatrixXd K = A * A.transpose();
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
  double expected = 0;
  for (double e : eig) expected += 0.5 * std::log1p(std::max(e, 0.0) / 0.01);
  CHECK(agents::information_gain(K, 0.01) == Approx(expected).epsilon(1e-12));
  CHECK(agents::information_gain(Eigen::MatrixXd(0, 0), 0.01) == 0);
}

TEST_CASE("local_ts.beta theory: the sample is N(nu, beta^2 lambda Sigma^-1), both BLR forms") {
  // eq. 2: Sigma = Phi^T Phi + lambda I, nu = Sigma^-1 Phi^T y, by dense algebra here.
  core::RngStream gen(8);
  for (const int n : {2, 7}) {  // n < M: the dual (Matheron) form; n >= M: the primal one
    const int M = 4;
    const double lambda = 0.3, beta = 2.5;
    Eigen::MatrixXd Phi(n, M);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < Phi.size(); ++i) Phi.data()[i] = gen.normal();
    for (int i = 0; i < n; ++i) y[i] = gen.normal();
    const Eigen::MatrixXd Sigma = Phi.transpose() * Phi + lambda * Eigen::MatrixXd::Identity(M, M);
    const Eigen::VectorXd nu = Sigma.ldlt().solve(Phi.transpose() * y);
    const Eigen::MatrixXd cov = beta * beta * lambda * Sigma.inverse();
    core::RngStream rng(9);
    const int draws = 40000;
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(M);
    Eigen::MatrixXd sq = Eigen::MatrixXd::Zero(M, M);
    for (int k = 0; k < draws; ++k) {
      const Eigen::VectorXd w = agents::scaled_blr_sample(Phi, y, lambda, beta, rng) - nu;
      sum += w;
      sq += w * w.transpose();
    }
    const Eigen::VectorXd mean = sum / draws;
    const Eigen::MatrixXd emp = sq / draws;
    for (int i = 0; i < M; ++i) {
      INFO("n = " << n << ", coordinate " << i);
      CHECK(std::abs(mean[i]) < 5 * std::sqrt(cov(i, i) / draws));
      CHECK(emp(i, i) == Approx(cov(i, i)).epsilon(0.05));
    }
  }
  // beta = 1 is blr_sample itself, draw for draw.
  Eigen::MatrixXd Phi = Eigen::MatrixXd::Identity(3, 3);
  core::RngStream a(1), b(1);
  CHECK(agents::scaled_blr_sample(Phi, Eigen::Vector3d(1, 2, 3), 0.5, 1.0, a) ==
        rff::blr_sample(Phi, Eigen::Vector3d(1, 2, 3), 0.5, b));
}

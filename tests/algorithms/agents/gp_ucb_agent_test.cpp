// GP-UCB on a finite candidate set (PO-GP-UCB's modeler, its baseline and Kusner et al.'s
// tuner): beta_t at the spec's values, the UCB argmax against a dense posterior, no repeated
// queries, and the invariance to a distance-preserving map of the candidates.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <algorithm>
#include <set>

#include "algorithms/agents/gp_ucb_agent.hpp"

using namespace fbosim;
using agents::GpUcbAgent;
using agents::GpUcbOptions;

namespace {

// Runs `steps` rounds of an agent on f(x) = values[i] for candidate i, returning the indices.
std::vector<Eigen::Index> drive(GpUcbAgent& a, const Eigen::VectorXd& values, int steps) {
  const core::RngFactory streams(1, 0);
  core::RngStream init = streams.stream("agent.init"), rng(0);
  for (const Eigen::VectorXd& x : a.initial_points(init)) {
    Eigen::Index i = 0;
    (a.points().rowwise() - x.transpose()).rowwise().squaredNorm().minCoeff(&i);
    a.observe(x, values[i]);
  }
  for (int t = 1; t <= steps; ++t) {
    const Eigen::VectorXd x = a.propose(t, protocol::NoBroadcast{}, rng, streams).x;
    Eigen::Index i = 0;
    (a.points().rowwise() - x.transpose()).rowwise().squaredNorm().minCoeff(&i);
    a.observe(x, values[i]);
  }
  return a.queried();
}

}  // namespace

TEST_CASE("beta_t = 2 log(n t^2 pi^2 / (6 delta')) at the spec's table (po-gp-ucb.md sec. 4.3)") {
  CHECK(agents::ucb_beta(10000, 1, 0.025) == Approx(26.79).epsilon(2e-4));
  CHECK(agents::ucb_beta(10000, 50, 0.025) == Approx(42.44).epsilon(2e-4));
  CHECK(agents::ucb_beta(36000, 1, 0.025) == Approx(29.36).epsilon(2e-4));
  CHECK(agents::ucb_beta(2004, 100, 0.025) == Approx(42.00).epsilon(2e-4));
  CHECK_THROWS_AS(agents::ucb_beta(10, 0, 0.025), std::invalid_argument);
  CHECK_THROWS_AS(agents::ucb_beta(10, 1, 1.0), std::invalid_argument);
}

TEST_CASE("GP-UCB picks the argmax of mu + sqrt(beta) sigma of the dense posterior, never twice") {
  core::RngStream rng(4);
  const Eigen::MatrixXd X = rng.uniform_matrix(80, 2);
  const Eigen::VectorXd f = rng.normal_vector(80);
  GpUcbOptions o;
  o.hyper = {0.2, 1.0, 0.01};
  o.init_points = 3;
  o.delta = 0.1;
  GpUcbAgent a(0, X, X, o);
  drive(a, f, 10);
  // The next choice from a dense solve of the posterior at every candidate.
  const auto& q = a.queried();
  const int n = static_cast<int>(q.size());
  Eigen::MatrixXd K(n, n), Ks(n, 80);
  auto k = [&](Eigen::Index i, Eigen::Index j) {
    return std::exp(-(X.row(i) - X.row(j)).squaredNorm() / (2 * 0.04));
  };
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    y[i] = f[q[i]];
    for (int j = 0; j < n; ++j) K(i, j) = k(q[i], q[j]) + (i == j ? 0.01 + 1e-10 : 0);
    for (int c = 0; c < 80; ++c) Ks(i, c) = k(q[i], c);
  }
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(K);
  const Eigen::VectorXd mean = Ks.transpose() * ldlt.solve(y);
  const Eigen::VectorXd var =
      (1 - (Ks.array() * ldlt.solve(Ks).array()).colwise().sum()).transpose();
  const double beta = 2 * std::log(80.0 * (n + 1) * (n + 1) * M_PI * M_PI / (6 * 0.1));
  Eigen::VectorXd score = mean.array() + std::sqrt(beta) * var.cwiseMax(0.0).array().sqrt();
  for (Eigen::Index i : q) score[i] = -1e300;
  Eigen::Index want = 0;
  score.maxCoeff(&want);
  const Eigen::VectorXd s = a.scores();
  for (int c = 0; c < 80; ++c)
    if (std::find(q.begin(), q.end(), c) == q.end()) CHECK(s[c] == Approx(score[c]).epsilon(1e-8));
  core::RngStream unused(0);
  const Eigen::VectorXd x =
      a.propose(11, protocol::NoBroadcast{}, unused, core::RngFactory(0, 0)).x;
  CHECK(x == X.row(want).transpose());
  // No candidate queried twice.
  const std::set<Eigen::Index> distinct(q.begin(), q.end());
  CHECK(distinct.size() == q.size());
}

TEST_CASE("GP-UCB on a set of 6 candidates queries each once, then may repeat") {
  Eigen::MatrixXd X(6, 1);
  X << 0, 0.2, 0.4, 0.6, 0.8, 1.0;
  const Eigen::VectorXd f = (Eigen::VectorXd(6) << 0.1, 0.5, 0.2, 0.9, 0.3, 0.0).finished();
  GpUcbOptions o;
  o.hyper = {0.3, 1.0, 1e-4};
  GpUcbAgent a(0, X, X, o);
  const auto q = drive(a, f, 7);
  const std::set<Eigen::Index> first(q.begin(), q.begin() + 6);
  CHECK(first.size() == 6);
  CHECK(q.size() == 8);
}

TEST_CASE("the modeler only sees distances: an isometry of the candidates gives the same queries") {
  core::RngStream rng(13);
  const Eigen::MatrixXd X = 25 * rng.uniform_matrix(300, 2);
  const Eigen::VectorXd f = rng.normal_vector(300);
  // Z = X Q with Q an orthogonal 2 x 2 rotation (r = d, no JL error): spec test 6's "Z = X".
  const double th = 0.7;
  Eigen::Matrix2d Q;
  Q << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
  for (const auto bonus : {GpUcbOptions::Bonus::deviation, GpUcbOptions::Bonus::variance}) {
    GpUcbOptions o;
    o.hyper = {6.25, 1.0, 1e-5};
    o.bonus = bonus;
    GpUcbAgent plain(0, X, X, o), projected(0, X * Q, X, o);
    CHECK(drive(plain, f, 25) == drive(projected, f, 25));
  }
}

TEST_CASE(
    "the variance bonus scores mu + sqrt(beta) var, the deviation bonus mu + sqrt(beta var)") {
  Eigen::MatrixXd X(4, 1);
  X << 0, 0.3, 0.6, 1;
  for (const auto bonus : {GpUcbOptions::Bonus::deviation, GpUcbOptions::Bonus::variance}) {
    GpUcbOptions o;
    o.hyper = {0.4, 2.0, 0.1};
    o.bonus = bonus;
    o.init_points = 2;
    o.exclude_queried = false;
    GpUcbAgent a(0, X, X, o);
    core::RngStream init(1);
    for (const Eigen::VectorXd& x : a.initial_points(init)) a.observe(x, x[0] - 0.5);
    const Eigen::VectorXd& mu = a.posterior().mean();
    const Eigen::VectorXd& var = a.posterior().variance();
    const double beta = agents::ucb_beta(4, 3, o.delta);
    for (int i = 0; i < 4; ++i) {
      const double want = bonus == GpUcbOptions::Bonus::variance ? mu[i] + std::sqrt(beta) * var[i]
                                                                 : mu[i] + std::sqrt(beta * var[i]);
      CHECK(a.scores()[i] == Approx(want).epsilon(1e-12));
    }
    // The agent checks that it observes the point it asked for.
    core::RngStream unused(0);
    const Eigen::VectorXd x =
        a.propose(1, protocol::NoBroadcast{}, unused, core::RngFactory(0, 0)).x;
    CHECK_THROWS_AS(a.observe(Eigen::VectorXd::Constant(1, 0.123), 0.0), std::logic_error);
    (void)x;
  }
}

TEST_CASE("gp.mean c: the posterior and the UCB against a dense solve with prior mean c") {
  // mu = c + k^T (K + s2 I)^-1 (y - c), var as with mean 0 (Rasmussen & Williams eq. 2.38 with
  // a constant mean), solved densely here; c far from f's values, so that a GP-UCB that
  // ignored c would be far off.
  core::RngStream rng(21);
  const Eigen::MatrixXd X = rng.uniform_matrix(60, 2);
  const Eigen::VectorXd f = rng.normal_vector(60);
  const double c = 7.5, s2 = 0.01;
  for (const auto bonus : {GpUcbOptions::Bonus::deviation, GpUcbOptions::Bonus::variance}) {
    GpUcbOptions o;
    o.hyper = {0.15, 2.0, s2};
    o.init_points = 3;
    o.bonus = bonus;
    o.prior_mean = c;
    GpUcbAgent a(0, X, X, o);
    const auto q = drive(a, f, 8);
    const int n = static_cast<int>(q.size());
    auto k = [&](Eigen::Index i, Eigen::Index j) {
      return 2.0 * std::exp(-(X.row(i) - X.row(j)).squaredNorm() / (2 * 0.15 * 0.15));
    };
    Eigen::MatrixXd K(n, n), Ks(n, 60);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) {
      y[i] = f[q[i]];
      for (int j = 0; j < n; ++j) K(i, j) = k(q[i], q[j]) + (i == j ? s2 + 1e-10 * 2.0 : 0);
      for (int m = 0; m < 60; ++m) Ks(i, m) = k(q[i], m);
    }
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(K);
    const Eigen::VectorXd mean =
        (Ks.transpose() * ldlt.solve((y.array() - c).matrix())).array() + c;
    const Eigen::VectorXd var =
        (2.0 - (Ks.array() * ldlt.solve(Ks).array()).colwise().sum()).transpose().cwiseMax(0.0);
    CHECK((a.posterior().mean() - mean).cwiseAbs().maxCoeff() < 1e-9);
    CHECK((a.posterior().variance() - var).cwiseAbs().maxCoeff() < 1e-9);
    const double beta = agents::ucb_beta(60, n + 1, o.delta);
    const Eigen::VectorXd s = a.scores();
    for (int m = 0; m < 60; ++m) {
      if (std::find(q.begin(), q.end(), m) != q.end()) continue;
      const double want = bonus == GpUcbOptions::Bonus::variance
                              ? mean[m] + std::sqrt(beta) * var[m]
                              : mean[m] + std::sqrt(beta * var[m]);
      CHECK(s[m] == Approx(want).epsilon(1e-10));
    }
  }
}

TEST_CASE("gp.mean c on y scores as mean 0 on y - c, plus c, and queries the same candidates") {
  core::RngStream rng(22);
  const Eigen::MatrixXd X = 25 * rng.uniform_matrix(200, 2);
  const Eigen::VectorXd f = rng.normal_vector(200).array() - 40.0;  // far below 0, near c
  const double c = -40;
  for (const auto bonus : {GpUcbOptions::Bonus::deviation, GpUcbOptions::Bonus::variance}) {
    GpUcbOptions o;
    o.hyper = {3.0, 1.0, 1e-5};
    o.init_points = 2;
    o.bonus = bonus;
    GpUcbOptions shifted = o;
    shifted.prior_mean = c;
    GpUcbAgent zero(0, X, X, o), with_c(0, X, X, shifted);
    const Eigen::VectorXd centred = f.array() - c;
    CHECK(drive(with_c, f, 20) == drive(zero, centred, 20));
    // The posterior mean with c on y is c + the one with mean 0 on y - c (the variance is the
    // same): so are the scores (queried candidates are -inf in both).
    CHECK(
        (with_c.posterior().mean().array() - c - zero.posterior().mean().array()).abs().maxCoeff() <
        1e-9);
    CHECK(with_c.posterior().variance() == zero.posterior().variance());
    const Eigen::VectorXd s_c = with_c.scores(), s_0 = zero.scores();
    for (Eigen::Index m = 0; m < s_c.size(); ++m) {
      if (std::isinf(s_0[m])) {
        CHECK(s_c[m] == s_0[m]);
      } else {
        CHECK(s_c[m] == Approx(s_0[m] + c).margin(1e-9));
      }
    }
    // Mean 0 on y itself (the mean ignored) queries other candidates: the prior's 0 lies 40
    // above every observation, so it explores where mean c exploits.
    GpUcbAgent ignored(0, X, X, o);
    CHECK(drive(ignored, f, 20) != with_c.queried());
  }
}

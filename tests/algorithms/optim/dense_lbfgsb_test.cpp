#include <catch2/catch.hpp>

#include <LBFGSB.h>

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include "algorithms/optim/dense_lbfgsb.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;
using fbosim::optim::DenseLbfgsb;

namespace {

VectorXd uniform(std::mt19937_64& gen, int n, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(gen);
  return v;
}

// Pairs (s, y) with s^T y > 0, from the secant steps of a random convex quadratic.
struct Pairs {
  std::vector<VectorXd> s, y;
};
Pairs random_pairs(std::mt19937_64& gen, int n, int count) {
  const MatrixXd A = MatrixXd::NullaryExpr(n, n, [&] { return uniform(gen, 1, -1, 1)[0]; });
  const MatrixXd H = A * A.transpose() + 0.3 * MatrixXd::Identity(n, n);
  Pairs p;
  for (int k = 0; k < count; ++k) {
    p.s.push_back(uniform(gen, n, -1, 1));
    p.y.push_back(H * p.s.back());
  }
  return p;
}

// A solver holding the pairs, in n dimensions with memory m.
DenseLbfgsb holding(const Pairs& p, int n, int m) {
  DenseLbfgsb::Param param;
  param.m = m;
  DenseLbfgsb solver(param);
  solver.reset(n);
  for (std::size_t k = 0; k < p.s.size(); ++k) solver.add_correction(p.s[k], p.y[k]);
  return solver;
}

// The compact form of Byrd, Nocedal & Schnabel (1994), eq. 3.2, for the last m pairs:
// B = theta I - W M W^T with W = [Y, theta S], M = [[-D, L^T], [L, theta S^T S]]^-1, D the
// diagonal and L the strictly lower triangle of S^T Y, theta = y^T y / s^T y of the newest pair.
MatrixXd compact_form(const Pairs& p, int m, int n) {
  const int k = std::min<int>(m, p.s.size());
  const int first = static_cast<int>(p.s.size()) - k;
  MatrixXd S(n, k), Y(n, k);
  for (int j = 0; j < k; ++j) {
    S.col(j) = p.s[first + j];
    Y.col(j) = p.y[first + j];
  }
  const double theta = Y.col(k - 1).squaredNorm() / S.col(k - 1).dot(Y.col(k - 1));
  const MatrixXd SY = S.transpose() * Y;
  MatrixXd mid(2 * k, 2 * k);
  mid.setZero();
  mid.topLeftCorner(k, k) = -MatrixXd(SY.diagonal().asDiagonal());
  MatrixXd L = SY.triangularView<Eigen::StrictlyLower>();
  mid.topRightCorner(k, k) = L.transpose();
  mid.bottomLeftCorner(k, k) = L;
  mid.bottomRightCorner(k, k) = theta * S.transpose() * S;
  MatrixXd W(n, 2 * k);
  W << Y, theta * S;
  return theta * MatrixXd::Identity(n, n) - W * mid.inverse() * W.transpose();
}

double model(const MatrixXd& B, const VectorXd& g, const VectorXd& d) {
  return g.dot(d) + 0.5 * d.dot(B * d);
}

// The first local minimiser of the model along the projected steepest-descent path
// P(x0 - t g) (Byrd et al. 1995, sec. 4), by a fine scan in t refined by golden section.
VectorXd brute_cauchy(const MatrixXd& B, const VectorXd& x0, const VectorXd& g, const VectorXd& lb,
                      const VectorXd& ub) {
  const auto path = [&](double t) { return VectorXd((x0 - t * g).cwiseMax(lb).cwiseMin(ub)); };
  const auto q = [&](double t) { return model(B, g, path(t) - x0); };
  double tmax = 0.0;  // beyond the last breakpoint the path is constant or unbounded
  for (int i = 0; i < x0.size(); ++i)
    if (g[i] != 0.0)
      tmax = std::max(tmax, std::max((x0[i] - lb[i]) / g[i], (x0[i] - ub[i]) / g[i]));
  tmax = tmax > 0.0 ? 1.5 * tmax + 10.0 : 10.0;
  const int steps = 200000;
  double prev = q(0.0);
  double lo = 0.0, hi = tmax;
  for (int s = 1; s <= steps; ++s) {
    const double t = tmax * s / steps;
    const double v = q(t);
    if (v > prev) {  // passed the first minimum: it lies in [t - 2h, t]
      lo = std::max(0.0, tmax * (s - 2) / steps);
      hi = t;
      break;
    }
    prev = v;
  }
  for (int it = 0; it < 200; ++it) {
    const double a = lo + 0.382 * (hi - lo), b = lo + 0.618 * (hi - lo);
    if (q(a) < q(b))
      hi = b;
    else
      lo = a;
  }
  return path(0.5 * (lo + hi));
}

template <class Solver>
double minimise(Solver& solver, VectorXd x, const VectorXd& lb, const VectorXd& ub,
                std::function<double(const VectorXd&, VectorXd&)> f, VectorXd* out = nullptr) {
  double fx = 0.0;
  try {
    solver.minimize(f, x, fx, lb, ub);
  } catch (const std::exception&) {
    x = x.cwiseMax(lb).cwiseMin(ub);
    VectorXd g(x.size());
    fx = f(x, g);
  }
  if (out) *out = x;
  return fx;
}

}  // namespace

TEST_CASE("DenseLbfgsb's B equals the compact limited-memory form, eq. 3.2 of Byrd et al. 1994") {
  std::mt19937_64 gen(11);
  for (int n : {1, 2, 3, 5, 8}) {
    for (int m : {1, 2, 3, 6}) {
      for (int count : {1, 2, 5, 9}) {
        const Pairs p = random_pairs(gen, n, count);
        DenseLbfgsb solver = holding(p, n, m);
        const MatrixXd expected = compact_form(p, m, n);
        INFO("n = " << n << ", m = " << m << ", pairs = " << count);
        CHECK((solver.hessian() - expected).cwiseAbs().maxCoeff() <=
              1e-9 * (1.0 + expected.cwiseAbs().maxCoeff()));
      }
    }
  }
}

TEST_CASE("DenseLbfgsb's Cauchy point is the first minimiser of the model along the path") {
  std::mt19937_64 gen(5);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + trial % 4;
    DenseLbfgsb solver = holding(random_pairs(gen, n, trial % 5), n, 3);
    const VectorXd lb = uniform(gen, n, -1.0, -0.1), ub = uniform(gen, n, 0.1, 1.0);
    VectorXd x0 = uniform(gen, n, -1, 1).cwiseMax(lb).cwiseMin(ub);
    if (trial % 3 == 0) x0[0] = lb[0];  // start on a bound
    const VectorXd g = uniform(gen, n, -3, 3);
    solver.cauchy_point(x0, g, lb, ub);
    const MatrixXd B = solver.hessian();
    const VectorXd expected = brute_cauchy(B, x0, g, lb, ub);
    INFO("trial " << trial);
    CHECK((solver.cauchy() - expected).cwiseAbs().maxCoeff() <= 1e-6);
    CHECK(model(B, g, solver.cauchy() - x0) <= model(B, g, expected - x0) + 1e-12);
  }
}

TEST_CASE("DenseLbfgsb's subspace step minimises the model over the free variables' box") {
  // Independent: every split of the free variables into lower / upper / interior, each solved
  // as a linear system; the best feasible one is the box-constrained minimiser (convex model).
  std::mt19937_64 gen(8);
  for (int trial = 0; trial < 500; ++trial) {
    const int n = 1 + trial % 4;
    DenseLbfgsb solver = holding(random_pairs(gen, n, 1 + trial % 4), n, 4);
    // Tight boxes, so that the unconstrained step often leaves them (BOXCQP's iterations).
    const double w = trial < 150 ? 0.3 : trial < 300 ? 0.05 : 2.0;  // 2: multipliers matter
    const VectorXd lb = uniform(gen, n, -w, -0.01), ub = uniform(gen, n, 0.01, w);
    const VectorXd x0 = uniform(gen, n, -0.01, 0.01);
    const VectorXd g = uniform(gen, n, -2, 2);
    solver.cauchy_point(x0, g, lb, ub);
    solver.subspace_direction(x0, g, lb, ub);
    const MatrixXd B = solver.hessian();
    const std::vector<int> F = solver.free_variables();
    const VectorXd xcp = solver.cauchy();
    const int nf = static_cast<int>(F.size());
    double best = std::numeric_limits<double>::infinity();
    int codes = 1;
    for (int k = 0; k < nf; ++k) codes *= 3;
    for (int code = 0; code < codes; ++code) {
      VectorXd d = xcp - x0;
      std::vector<int> interior;
      for (int k = 0, c = code; k < nf; ++k, c /= 3) {
        const int i = F[k];
        if (c % 3 == 0) d[i] = lb[i] - x0[i];
        if (c % 3 == 1) d[i] = ub[i] - x0[i];
        if (c % 3 == 2) interior.push_back(i);
      }
      if (!interior.empty()) {
        const int ni = static_cast<int>(interior.size());
        MatrixXd H(ni, ni);
        VectorXd r(ni);
        for (int a = 0; a < ni; ++a) {
          for (int b = 0; b < ni; ++b) H(a, b) = B(interior[a], interior[b]);
          d[interior[a]] = 0.0;
        }
        const VectorXd grad = g + B * d;
        for (int a = 0; a < ni; ++a) r[a] = grad[interior[a]];
        const VectorXd sol = H.llt().solve(-r);
        for (int a = 0; a < ni; ++a) d[interior[a]] = sol[a];
      }
      if (((x0 + d).array() < lb.array() - 1e-12).any() ||
          ((x0 + d).array() > ub.array() + 1e-12).any())
        continue;
      best = std::min(best, model(B, g, d));
    }
    INFO("trial " << trial << ", n = " << n << ", free = " << nf);
    const VectorXd d = solver.direction();
    CHECK(((x0 + d).array() >= lb.array() - 1e-12).all());
    CHECK(((x0 + d).array() <= ub.array() + 1e-12).all());
    CHECK(model(B, g, d) == Approx(best).epsilon(1e-9).margin(1e-12));
  }
}

TEST_CASE("DenseLbfgsb and LBFGSpp's LBFGSBSolver: same minima on boxed test problems") {
  // One body over both implementations of the same L-BFGS-B iteration.
  std::mt19937_64 gen(21);
  int same_iterates = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 1 + trial % 4;
    const VectorXd centre = uniform(gen, n, -1.5, 1.5);
    const MatrixXd A = MatrixXd::NullaryExpr(n, n, [&] { return uniform(gen, 1, -1, 1)[0]; });
    const MatrixXd H = A * A.transpose() + 0.2 * MatrixXd::Identity(n, n);
    const bool quartic = trial % 2 == 1;
    // A convex quadratic or a quartic bowl (x^T H x)^2 / 4 + e^T x: strictly convex on the box,
    // so both solvers must reach its unique constrained minimum.
    std::function<double(const VectorXd&, VectorXd&)> f = [&](const VectorXd& x, VectorXd& g) {
      const VectorXd r = x - centre;
      const VectorXd Hr = H * r;
      const double q = r.dot(Hr);
      if (!quartic) {
        g = Hr;
        return 0.5 * q;
      }
      g = q * Hr + 0.1 * VectorXd::Ones(n) + Hr;
      return 0.25 * q * q + 0.1 * r.sum() + 0.5 * q;
    };
    const VectorXd lb = -VectorXd::Ones(n), ub = VectorXd::Ones(n);
    const VectorXd x0 = uniform(gen, n, -1, 1);
    LBFGSpp::LBFGSBParam<double> param;
    param.m = 1 + trial % 6;
    param.epsilon = 1e-9;
    param.max_iterations = 200;
    LBFGSpp::LBFGSBSolver<double> reference(param);
    DenseLbfgsb dense(param);
    VectorXd xr, xd;
    const double fr = minimise(reference, x0, lb, ub, f, &xr);
    const double fd = minimise(dense, x0, lb, ub, f, &xd);
    INFO("trial " << trial << ", n = " << n << ", m = " << param.m);
    CHECK(fd == Approx(fr).epsilon(1e-8).margin(1e-10));
    CHECK((xd - xr).cwiseAbs().maxCoeff() <= 1e-4);
    if ((xd - xr).cwiseAbs().maxCoeff() <= 1e-9) ++same_iterates;
  }
  CHECK(same_iterates >= 110);  // all 120 when written
}

TEST_CASE("DenseLbfgsb follows LBFGSpp's iterates step for step without active bounds") {
  // Rosenbrock in a box wide enough never to bind: the two differ only by rounding in how the
  // quasi-Newton step is computed, so the iterates agree closely while the rounding stays small.
  const auto rosen = [](const VectorXd& x, VectorXd& g) {
    const int n = static_cast<int>(x.size());
    double f = 0.0;
    g.setZero(n);
    for (int i = 0; i + 1 < n; ++i) {
      const double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
      f += 100.0 * a * a + b * b;
      g[i] += -400.0 * a * x[i] - 2.0 * b;
      g[i + 1] += 200.0 * a;
    }
    return f;
  };
  for (int n : {2, 3, 4}) {
    for (int iterations : {1, 2, 5, 10}) {
      LBFGSpp::LBFGSBParam<double> param;
      param.max_iterations = iterations;
      LBFGSpp::LBFGSBSolver<double> reference(param);
      DenseLbfgsb dense(param);
      const VectorXd lb = VectorXd::Constant(n, -50.0), ub = VectorXd::Constant(n, 50.0);
      VectorXd xr = VectorXd::Constant(n, -1.2), xd = xr;
      xr[n - 1] = xd[n - 1] = 1.0;
      double fr = 0, fd = 0;
      auto f1 = rosen;
      auto f2 = rosen;
      reference.minimize(f1, xr, fr, lb, ub);
      dense.minimize(f2, xd, fd, lb, ub);
      INFO("n = " << n << ", iterations = " << iterations);
      CHECK((xd - xr).cwiseAbs().maxCoeff() <= 1e-8 * (1.0 + xr.cwiseAbs().maxCoeff()));
      CHECK(fd == Approx(fr).epsilon(1e-8));
    }
  }
}

TEST_CASE("DenseLbfgsb stops where LBFGSpp stops: converged start, max_iterations, bad sizes") {
  LBFGSpp::LBFGSBParam<double> param;
  param.max_iterations = 3;
  DenseLbfgsb dense(param);
  auto bowl = [](const VectorXd& x, VectorXd& g) {
    g = 2.0 * x;
    return x.squaredNorm();
  };
  VectorXd x = VectorXd::Zero(2);
  double fx = 1.0;
  CHECK(dense.minimize(bowl, x, fx, -VectorXd::Ones(2), VectorXd::Ones(2)) == 1);
  CHECK(fx == 0.0);
  // A minimum outside the box: it ends on the bound, projected gradient zero.
  auto shifted = [](const VectorXd& x, VectorXd& g) {
    g = 2.0 * (x - VectorXd::Constant(2, 3.0));
    return (x - VectorXd::Constant(2, 3.0)).squaredNorm();
  };
  x = VectorXd::Constant(2, 0.2);
  param.max_iterations = 50;
  DenseLbfgsb again(param);
  again.minimize(shifted, x, fx, -VectorXd::Ones(2), VectorXd::Ones(2));
  CHECK(x[0] == 1.0);
  CHECK(x[1] == 1.0);
  CHECK_THROWS_AS(again.minimize(shifted, x, fx, -VectorXd::Ones(3), VectorXd::Ones(2)),
                  std::invalid_argument);
}

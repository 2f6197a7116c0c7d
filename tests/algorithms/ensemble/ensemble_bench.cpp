// Timing of the RGPE / TAF ensemble maths at the landmine scale (FTS sec. 5.2: N = 28 sources,
// M = 100 shared features with l = 0.01 and lambda = 1e-6, t_n = 50 observations per source,
// 3 initial target points + 50 iterations). NOT a test: run by hand, natively for wall times or
// under `valgrind --tool=callgrind` for instruction counts.
//   bench_ensemble <rgpe|taf> <authors|corrected> [lengthscale 0.01] [iterations 50] [n0 3]
// Each iteration recomputes the weights, maximises the score (1000 random points as one batch,
// then L-BFGS-B from 20 starts x 30 iterations, ScoreMaximiser's defaults) and adds the
// chosen point to the target's data. Objectives are synthetic AUC-like surfaces.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/ensemble/rgpe_score.hpp"
#include "algorithms/ensemble/rgpe_weights.hpp"
#include "algorithms/ensemble/taf_score.hpp"
#include "algorithms/ensemble/taf_weights.hpp"
#include "algorithms/surrogate/exact_gp.hpp"

using namespace fbosim;
using Clock = std::chrono::steady_clock;

namespace {
// An AUC-like surface in [0.5, 1] on [0,1]^2; `shift` makes related tasks.
double auc(const Eigen::VectorXd& x, double shift) {
  return 0.8 + 0.1 * std::sin(4.0 * x[0] + shift) * std::cos(3.0 * x[1] - 0.5 * shift) +
         0.05 * std::cos(7.0 * (x[0] + x[1]) + shift);
}

ensemble::SourcePosterior make_source(const rff::RandomFeatures& f, double shift, double lambda,
                                      core::RngStream& rng) {
  const Eigen::MatrixXd X = rng.uniform_matrix(50, 2);
  Eigen::VectorXd y(50);
  for (int j = 0; j < 50; ++j) y[j] = auc(X.row(j).transpose(), shift);
  const Eigen::MatrixXd Phi = f.features(X);
  const Eigen::Index M = f.size();
  const Eigen::MatrixXd Sigma = Phi.transpose() * Phi + lambda * Eigen::MatrixXd::Identity(M, M);
  Eigen::MatrixXd Si = Sigma.ldlt().solve(Eigen::MatrixXd::Identity(M, M));
  Si = (0.5 * (Si + Si.transpose())).eval();
  return ensemble::SourcePosterior(Si * (Phi.transpose() * y), Si, lambda, y.maxCoeff());
}

double ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

int main(int argc, char** argv) {
  const std::string method = argc > 1 ? argv[1] : "rgpe";
  const ensemble::Variant variant = argc > 2 && std::string(argv[2]) == "corrected"
                                        ? ensemble::Variant::corrected
                                        : ensemble::Variant::authors;
  const double lengthscale = argc > 3 ? std::atof(argv[3]) : 0.01;
  const int iterations = argc > 4 ? std::atoi(argv[4]) : 50;
  const int n0 = argc > 5 ? std::atoi(argv[5]) : 3;
  const int N = 28, M = 100;
  const double lambda = 1e-6;

  core::RngStream rng(2020);
  const rff::RandomFeatures f = rff::RandomFeatures::draw(2, M, lengthscale, 1.0, rng);
  const auto t0 = Clock::now();
  std::vector<ensemble::SourcePosterior> sources;
  for (int m = 0; m < N; ++m) sources.push_back(make_source(f, 0.1 * (m + 1), lambda, rng));
  const auto t1 = Clock::now();

  Eigen::MatrixXd X = rng.uniform_matrix(n0, 2);
  Eigen::VectorXd y(n0);
  for (int j = 0; j < n0; ++j) y[j] = auc(X.row(j).transpose(), 0.0);
  surrogate::ExactGp target(2, {0.2, 1.0, 1e-4});
  const acq::ScoreMaximiser opt;  // 1000 random points, 20 starts x 30 iterations
  const core::Box box = core::Box::unit(2);
  double t_weights = 0, t_max = 0, active = 0;
  long evals = 0, grads = 0;
  for (int it = 0; it < iterations; ++it) {
    target.fit(X, y);
    core::RngStream step(1000 + it), draws(5000 + it);
    const auto a = Clock::now();
    Eigen::VectorXd w;
    if (method == "rgpe") {
      w = ensemble::rgpe_weights(sources, f, target, X, y, step, {100, variant});
    } else {
      w = ensemble::taf_weights(sources, f, X, y, variant);
    }
    const auto b = Clock::now();
    acq::ScoreMaximiser::Result r;
    auto count = [&](acq::ScoreMaximiser::Score s) {
      auto inner = s.value;
      s.value = [&evals, &grads, inner](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
        ++evals;
        grads += g != nullptr;
        return inner(x, g);
      };
      return s;
    };
    if (method == "rgpe") {
      const ensemble::RgpeScore score(f, sources, w, target, y.maxCoeff(), variant);
      active += static_cast<double>(score.active_sources().size());
      r = opt.maximise(count(score.score()), box, step);
    } else {
      const ensemble::TafScore score(f, sources, w, target, y.maxCoeff(), variant, &draws);
      active += static_cast<double>(score.active_sources().size());
      r = opt.maximise(count(score.score()), box, step);
    }
    const auto c = Clock::now();
    t_weights += ms(a, b);
    t_max += ms(b, c);
    X.conservativeResize(X.rows() + 1, Eigen::NoChange);
    X.row(X.rows() - 1) = r.x.transpose();
    y.conservativeResize(y.size() + 1);
    y[y.size() - 1] = auc(r.x, 0.0);
  }
  std::printf("%s %s l=%g: %d iterations from n=%d to n=%d; sources built in %.1f ms\n",
              method.c_str(), variant == ensemble::Variant::authors ? "authors" : "corrected",
              lengthscale, iterations, n0, static_cast<int>(y.size()), ms(t0, t1));
  std::printf(
      "  weights %.2f ms/iteration, maximisation %.2f ms/iteration (%.0f point "
      "evaluations, %.0f with gradient), total %.3f s; %.1f active sources on average; "
      "best y %.4f\n",
      t_weights / iterations, t_max / iterations, double(evals) / iterations,
      double(grads) / iterations, (t_weights + t_max) / 1000, active / iterations, y.maxCoeff());
  return 0;
}

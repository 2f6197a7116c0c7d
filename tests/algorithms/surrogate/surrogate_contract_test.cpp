// Contract test: one body per property, run over every Surrogate (design note "protocols",
// guard rail "contract tests"). A new surrogate adds one maker below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include <Eigen/Dense>

#include "algorithms/rff/random_features.hpp"
#include "algorithms/surrogate/exact_gp.hpp"
#include "algorithms/surrogate/rff_surrogate.hpp"

using fbosim::core::RngStream;
using fbosim::surrogate::ExactGp;
using fbosim::surrogate::JointPrediction;
using fbosim::surrogate::Prediction;
using fbosim::surrogate::RffSurrogate;
using fbosim::surrogate::Surrogate;

namespace {
constexpr double kLengthscale = 0.3;
constexpr double kSignalVar = 1.3;

struct ExactGpMaker {
  static std::unique_ptr<Surrogate> make(int dim, double noise_var) {
    return std::make_unique<ExactGp>(dim, fbosim::gp::SeHyper{kLengthscale, kSignalVar, noise_var});
  }
};
struct RffMaker {
  static std::unique_ptr<Surrogate> make(int dim, double noise_var) {
    RngStream rng(1234);  // fixed features: the model is a deterministic function of its data
    return std::make_unique<RffSurrogate>(
        fbosim::rff::RandomFeatures::draw(dim, 150, kLengthscale, kSignalVar, rng), noise_var);
  }
};

// |a - b| <= rel * max(|b|_inf, floor), entrywise.
bool close(const Eigen::VectorXd& a, const Eigen::VectorXd& b, double rel, double floor = 1.0) {
  const double scale = std::max(b.cwiseAbs().maxCoeff(), floor);
  return (a - b).cwiseAbs().maxCoeff() <= rel * scale;
}

struct Data {
  Eigen::MatrixXd X;
  Eigen::VectorXd y;
};
Data toy_data(int n, int d, RngStream& rng) {
  Data data{rng.uniform_matrix(n, d), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i)
    data.y[i] = std::sin(6.0 * data.X(i, 0)) + 0.3 * data.X.row(i).sum() + 0.1 * rng.normal();
  return data;
}
}  // namespace

TEMPLATE_TEST_CASE("surrogate contract: fit equals adding the points one by one", "[surrogate]",
                   ExactGpMaker, RffMaker) {
  RngStream rng(1);
  const Data data = toy_data(60, 2, rng);
  const Eigen::MatrixXd Xq = rng.uniform_matrix(50, 2);
  auto batch = TestType::make(2, 0.01);
  auto one = TestType::make(2, 0.01);
  batch->fit(data.X, data.y);
  for (int i = 0; i < 60; ++i) one->add(data.X.row(i).transpose(), data.y[i]);
  CHECK(batch->size() == 60);
  CHECK(one->size() == 60);
  CHECK(one->dim() == 2);
  const Prediction a = one->predict(Xq), b = batch->predict(Xq);
  CHECK(close(a.mean, b.mean, 1e-9));
  CHECK(close(a.variance, b.variance, 1e-9, b.variance.maxCoeff()));
  const JointPrediction ja = one->predict_joint(Xq), jb = batch->predict_joint(Xq);
  CHECK((ja.covariance - jb.covariance).cwiseAbs().maxCoeff() <=
        1e-9 * jb.covariance.cwiseAbs().maxCoeff());
  // fit after data replaces the data rather than adding to it.
  batch->fit(data.X.topRows(10), data.y.head(10));
  auto ten = TestType::make(2, 0.01);
  for (int i = 0; i < 10; ++i) ten->add(data.X.row(i).transpose(), data.y[i]);
  CHECK(batch->size() == 10);
  CHECK(close(batch->predict(Xq).mean, ten->predict(Xq).mean, 1e-9));
}

TEMPLATE_TEST_CASE("surrogate contract: prior without data, 0 <= variance <= prior variance",
                   "[surrogate]", ExactGpMaker, RffMaker) {
  RngStream rng(2);
  auto s = TestType::make(3, 0.05);
  const Eigen::MatrixXd Xq = rng.uniform_matrix(40, 3);
  const Prediction prior = s->predict(Xq);
  CHECK(s->size() == 0);
  CHECK(s->noise_var() == 0.05);
  CHECK(prior.mean.cwiseAbs().maxCoeff() < 1e-12);
  // The SE kernel's (and the normalised features') prior variance is signal_var everywhere.
  CHECK(close(prior.variance, Eigen::VectorXd::Constant(40, kSignalVar), 1e-9));
  const Data data = toy_data(30, 3, rng);
  s->fit(data.X, data.y);
  Eigen::MatrixXd both(70, 3);
  both << Xq, data.X;  // far from and at the data
  const Prediction post = s->predict(both);
  CHECK(post.variance.minCoeff() >= 0.0);
  CHECK(post.variance.maxCoeff() <= kSignalVar * (1 + 1e-12));
  // Conditioning on data strictly reduces the variance at the data points.
  CHECK(post.variance.tail(30).maxCoeff() < 0.05);
  // Fitting no data returns to the prior.
  s->fit(Eigen::MatrixXd(0, 3), Eigen::VectorXd(0));
  CHECK(s->size() == 0);
  CHECK(close(s->predict(Xq).variance, prior.variance, 1e-12));
  CHECK(s->predict(Xq).mean.cwiseAbs().maxCoeff() < 1e-12);
  // No query points: empty answers.
  s->fit(data.X, data.y);
  const Eigen::MatrixXd none(0, 3);
  CHECK(s->predict(none).mean.size() == 0);
  CHECK(s->predict(none).variance.size() == 0);
  CHECK(s->predict_joint(none).covariance.size() == 0);
  RngStream r(8);
  CHECK(s->sample(none, 4, r).size() == 0);
  CHECK(s->sample(Xq, 0, r).cols() == 0);
}

TEMPLATE_TEST_CASE("surrogate contract: with tiny noise the mean interpolates the data",
                   "[surrogate]", ExactGpMaker, RffMaker) {
  auto s = TestType::make(1, 1e-8);
  Eigen::MatrixXd X(5, 1);
  X << 0.1, 0.3, 0.5, 0.7, 0.9;
  const Eigen::VectorXd y = (Eigen::VectorXd(5) << 0.4, -1.0, 0.7, 1.5, -0.2).finished();
  s->fit(X, y);
  const Prediction p = s->predict(X);
  CHECK((p.mean - y).cwiseAbs().maxCoeff() < 1e-5);
  CHECK(p.variance.maxCoeff() < 1e-6);
  // ... while between and away from the data points the variance is back up.
  const Prediction off = s->predict((Eigen::MatrixXd(2, 1) << 0.2, 1.6).finished());
  CHECK(off.variance[0] > 100 * p.variance.maxCoeff());
  CHECK(off.variance[1] > 0.5 * kSignalVar);
}

TEMPLATE_TEST_CASE("surrogate contract: joint samples have the predicted mean and covariance",
                   "[surrogate]", ExactGpMaker, RffMaker) {
  RngStream rng(3);
  const Data data = toy_data(12, 1, rng);
  auto s = TestType::make(1, 0.02);
  s->fit(data.X, data.y);
  // Close points (strong correlation) and a far point.
  const Eigen::MatrixXd Xq = (Eigen::MatrixXd(4, 1) << 0.05, 0.15, 0.2, 1.4).finished();
  const JointPrediction joint = s->predict_joint(Xq);
  const Prediction marg = s->predict(Xq);
  CHECK(close(joint.mean, marg.mean, 1e-10));
  CHECK(close(joint.covariance.diagonal(), marg.variance, 1e-9, marg.variance.maxCoeff()));
  const int N = 20000;
  RngStream draws(4);
  const Eigen::MatrixXd F = s->sample(Xq, N, draws);  // 4 x N
  REQUIRE(F.rows() == 4);
  REQUIRE(F.cols() == N);
  const Eigen::VectorXd mc_mean = F.rowwise().mean();
  const Eigen::MatrixXd centred = F.colwise() - mc_mean;
  const Eigen::MatrixXd mc_cov = centred * centred.transpose() / (N - 1);
  const Eigen::MatrixXd& C = joint.covariance;
  for (int i = 0; i < 4; ++i) {
    // Standard errors of a sample mean and of a Gaussian sample covariance; 5 SE limits.
    CHECK(std::abs(mc_mean[i] - joint.mean[i]) <= 5.0 * std::sqrt(C(i, i) / N));
    for (int j = 0; j < 4; ++j)
      CHECK(std::abs(mc_cov(i, j) - C(i, j)) <=
            5.0 * std::sqrt((C(i, i) * C(j, j) + C(i, j) * C(i, j)) / N) + 1e-12);
  }
  // Draw s does not depend on how many draws are asked for; same stream, same draws.
  RngStream again(4);
  const Eigen::MatrixXd first = s->sample(Xq, 3, again);
  CHECK((first - F.leftCols(3)).cwiseAbs().maxCoeff() < 1e-12);
}

TEMPLATE_TEST_CASE("surrogate contract: the posterior does not depend on the data order",
                   "[surrogate]", ExactGpMaker, RffMaker) {
  RngStream rng(5);
  const Data data = toy_data(40, 2, rng);
  std::vector<int> order(40);
  std::iota(order.begin(), order.end(), 0);
  std::reverse(order.begin(), order.end());
  std::swap(order[3], order[17]);
  Data permuted{Eigen::MatrixXd(40, 2), Eigen::VectorXd(40)};
  for (int i = 0; i < 40; ++i) {
    permuted.X.row(i) = data.X.row(order[i]);
    permuted.y[i] = data.y[order[i]];
  }
  auto a = TestType::make(2, 0.01);
  auto b = TestType::make(2, 0.01);
  a->fit(data.X, data.y);
  for (int i = 0; i < 40; ++i) b->add(permuted.X.row(i).transpose(), permuted.y[i]);
  const Eigen::MatrixXd Xq = rng.uniform_matrix(30, 2);
  const Prediction pa = a->predict(Xq), pb = b->predict(Xq);
  CHECK(close(pa.mean, pb.mean, 1e-9));
  CHECK(close(pa.variance, pb.variance, 1e-9, pa.variance.maxCoeff()));
}

TEMPLATE_TEST_CASE(
    "surrogate contract: predict_point agrees with predict, its gradients with "
    "central differences",
    "[surrogate]", ExactGpMaker, RffMaker) {
  RngStream rng(6);
  const Data data = toy_data(25, 2, rng);
  auto s = TestType::make(2, 0.01);
  s->fit(data.X, data.y);
  for (int rep = 0; rep < 5; ++rep) {
    const Eigen::VectorXd x = rng.uniform_matrix(2, 1);
    Eigen::VectorXd gm, gv;
    const auto p = s->predict_point(x, &gm, &gv);
    const Prediction q = s->predict(x.transpose());
    CHECK(p.mean == Approx(q.mean[0]).epsilon(1e-10).margin(1e-12));
    CHECK(p.variance == Approx(q.variance[0]).epsilon(1e-9).margin(1e-12));
    const double h = 1e-5;
    for (int j = 0; j < 2; ++j) {
      Eigen::VectorXd up = x, down = x;
      up[j] += h;
      down[j] -= h;
      const Prediction pu = s->predict(up.transpose()), pd = s->predict(down.transpose());
      CHECK(gm[j] == Approx((pu.mean[0] - pd.mean[0]) / (2 * h)).epsilon(1e-5).margin(1e-6));
      CHECK(gv[j] ==
            Approx((pu.variance[0] - pd.variance[0]) / (2 * h)).epsilon(1e-5).margin(1e-6));
    }
  }
}

TEMPLATE_TEST_CASE("surrogate contract: a clone is independent, bad shapes are rejected",
                   "[surrogate]", ExactGpMaker, RffMaker) {
  RngStream rng(7);
  const Data data = toy_data(10, 2, rng);
  auto s = TestType::make(2, 0.01);
  s->fit(data.X, data.y);
  const Eigen::MatrixXd Xq = rng.uniform_matrix(5, 2);
  const Prediction before = s->predict(Xq);
  auto c = s->clone();
  CHECK(c->predict(Xq).mean == before.mean);
  c->add(Eigen::Vector2d(0.5, 0.5), 3.0);
  CHECK(c->size() == 11);
  CHECK(s->size() == 10);
  CHECK(s->predict(Xq).mean == before.mean);
  CHECK_THROWS_AS(s->add(Eigen::Vector3d(0.1, 0.2, 0.3), 1.0), std::invalid_argument);
  CHECK_THROWS_AS(s->add(Eigen::Vector2d(0.1, NAN), 1.0), std::invalid_argument);
  CHECK_THROWS_AS(s->fit(data.X, data.y.head(9)), std::invalid_argument);
  CHECK_THROWS_AS(s->predict(Eigen::MatrixXd(3, 1)), std::invalid_argument);
  CHECK(s->size() == 10);
}

#include <catch2/catch.hpp>

#include <cmath>
#include <utility>
#include <vector>

#include "../surrogate/kernel_by_hand.hpp"
#include "algorithms/ensemble/leave_one_out.hpp"
#include "algorithms/ensemble/rank_losses.hpp"
#include "algorithms/surrogate/exact_gp.hpp"
#include "ensemble_fixture.hpp"

using ensemble_test::cdf;
using ensemble_test::source_from_data;
using fbosim::core::RngStream;
using fbosim::ensemble::independent_rank_losses;
using fbosim::ensemble::joint_rank_losses;
using fbosim::ensemble::pair_discord_probabilities;
using fbosim::ensemble::rank_losses;
using fbosim::ensemble::SourcePosterior;
using fbosim::ensemble::target_rank_losses;
using fbosim::rff::RandomFeatures;
using fbosim::surrogate::ExactGp;

namespace {
// The loss of one sample, written as in the FTS code: every ordered pair (j, k), j != k.
double loss_loop(const Eigen::VectorXd& f, const Eigen::VectorXd& y) {
  double L = 0;
  for (int j = 0; j < y.size(); ++j)
    for (int k = 0; k < y.size(); ++k)
      if (j != k) L += (y[j] < y[k]) != (f[j] < f[k]);
  return L;
}

// The data without point j: the refit that a leave-one-out posterior must equal.
std::pair<Eigen::MatrixXd, Eigen::VectorXd> without_point(const Eigen::MatrixXd& X,
                                                          const Eigen::VectorXd& y, int j) {
  Eigen::MatrixXd Xj(X.rows() - 1, X.cols());
  Eigen::VectorXd yj(y.size() - 1);
  for (int i = 0, r = 0; i < X.rows(); ++i)
    if (i != j) {
      Xj.row(r) = X.row(i);
      yj[r++] = y[i];
    }
  return {Xj, yj};
}

// An ExactGp behind the Surrogate interface only, so target_rank_losses takes its refit path.
class Wrapped : public fbosim::surrogate::Surrogate {
 public:
  explicit Wrapped(const ExactGp& gp) : gp_(gp) {}
  int dim() const override { return gp_.dim(); }
  int size() const override { return gp_.size(); }
  double noise_var() const override { return gp_.noise_var(); }
  void fit(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) override { gp_.fit(X, y); }
  void add(const Eigen::VectorXd& x, double y) override { gp_.add(x, y); }
  fbosim::surrogate::Prediction predict(const Eigen::MatrixXd& X) const override {
    return gp_.predict(X);
  }
  fbosim::surrogate::PointPrediction predict_point(const Eigen::VectorXd& x, Eigen::VectorXd* gm,
                                                   Eigen::VectorXd* gv) const override {
    return gp_.predict_point(x, gm, gv);
  }
  fbosim::surrogate::JointPrediction predict_joint(const Eigen::MatrixXd& X) const override {
    return gp_.predict_joint(X);
  }
  std::unique_ptr<Surrogate> clone() const override { return std::make_unique<Wrapped>(gp_); }

 private:
  ExactGp gp_;
};
}  // namespace

TEST_CASE("rank_losses counts misranked ordered pairs, ties in y counting once") {
  Eigen::VectorXd y(4);
  y << 1.0, 2.0, 2.0, 3.0;
  Eigen::MatrixXd F(4, 3);
  F.col(0) << 0.1, 0.2, 0.3, 0.4;  // perfect except the tied pair: 1
  F.col(1) << 0.4, 0.3, 0.2, 0.1;  // reversed: 5 distinct-y pairs x 2 + 1 tied = 11
  F.col(2) << 0.5, 0.5, 0.5, 0.5;  // all F equal: (y_j < y_k) xor false over 5 pairs = 5
  const Eigen::VectorXd L = rank_losses(F, y);
  CHECK(L[0] == 1);
  CHECK(L[1] == 11);
  CHECK(L[2] == 5);
  RngStream rng(301);
  const Eigen::MatrixXd G = rng.normal_matrix(9, 50);
  const Eigen::VectorXd z = rng.normal_vector(9).array().round();  // ties in y
  const Eigen::VectorXd LG = rank_losses(G, z);
  for (int s = 0; s < 50; ++s) CHECK(LG[s] == loss_loop(G.col(s), z));
}

TEST_CASE("independent pair losses: Poisson-binomial mean and variance of the pair probabilities") {
  RngStream rng(302);
  const int M = 30, n = 12, S = 4000;
  const RandomFeatures f = RandomFeatures::draw(2, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd Xs = rng.uniform_matrix(10, 2);
  const SourcePosterior s = source_from_data(f, Xs, ensemble_test::bumps(Xs, 0.5), 0.05);
  const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
  Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
  y[3] = y[4];  // a tie in y
  const Eigen::MatrixXd Phi = f.features(X);
  const fbosim::surrogate::Prediction p = s.predict(Phi);
  // q_jk written out: P(misranked) = P(a_j >= b_k) if y_j < y_k else P(a_j < b_k).
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(n, n);
  double mean = 0, var = 0;
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k) {
      if (j == k) continue;
      const double p_less = cdf((p.mean[k] - p.mean[j]) / std::sqrt(p.variance[j] + p.variance[k]));
      q(j, k) = y[j] < y[k] ? 1 - p_less : p_less;
      mean += q(j, k);
      var += q(j, k) * (1 - q(j, k));
    }
  CHECK((pair_discord_probabilities(p.mean, p.variance, y) - q).cwiseAbs().maxCoeff() < 1e-12);
  RngStream draws(303);
  const Eigen::VectorXd L = independent_rank_losses(s, Phi, y, S, draws);
  const double emp_mean = L.mean();
  const double emp_var = (L.array() - emp_mean).square().sum() / (S - 1);
  CHECK(std::abs(emp_mean - mean) < 5 * std::sqrt(var / S));
  CHECK(emp_var == Approx(var).epsilon(0.1));  // se of a variance ~ var sqrt(2 / S) = 2 %
  CHECK(L.minCoeff() >= 0);
  CHECK(L.maxCoeff() <= n * (n - 1));
  for (int s2 = 0; s2 < S; ++s2) CHECK(L[s2] == std::round(L[s2]));
}

TEST_CASE("one uniform per pair has the distribution of two independent normals") {
  // Two pairs with known probabilities: P(a < b) for a ~ N(0, 1), b ~ N(0.3, 0.5), drawn
  // directly with normals here, against the loss of a 2-point problem.
  const double pab = cdf(0.3 / std::sqrt(1.5));
  Eigen::VectorXd y(2);
  y << 0.0, 1.0;  // (0,1) misranked iff a_0 >= b_1; (1,0) misranked iff a_1 < b_0
  const Eigen::MatrixXd q =
      pair_discord_probabilities(Eigen::Vector2d(0.0, 0.3), Eigen::Vector2d(1.0, 0.5), y);
  RngStream rng(304);
  const int S = 200000;
  double hits01 = 0, hits10 = 0;
  for (int s = 0; s < S; ++s) {
    const double a0 = rng.normal(), b1 = 0.3 + std::sqrt(0.5) * rng.normal();
    const double a1 = 0.3 + std::sqrt(0.5) * rng.normal(), b0 = rng.normal();
    hits01 += a0 >= b1;
    hits10 += a1 < b0;
  }
  CHECK(q(0, 1) == Approx(1 - pab).epsilon(1e-14));
  CHECK(q(1, 0) == Approx(1 - pab).epsilon(1e-14));
  CHECK(std::abs(hits01 / S - q(0, 1)) < 5 * std::sqrt(q(0, 1) * (1 - q(0, 1)) / S));
  CHECK(std::abs(hits10 / S - q(1, 0)) < 5 * std::sqrt(q(1, 0) * (1 - q(1, 0)) / S));
  // Zero variance: the comparisons are deterministic and strict.
  const Eigen::MatrixXd q0 =
      pair_discord_probabilities(Eigen::Vector2d(1.0, 1.0), Eigen::Vector2d(0.0, 0.0), y);
  CHECK(q0(0, 1) == 1.0);  // y_0 < y_1 but a_0 < b_1 is false
  CHECK(q0(1, 0) == 0.0);
}

TEST_CASE("independent losses are exact 0 or K for certain rankings, same seed, same losses") {
  RngStream rng(305);
  const int M = 20, n = 6;
  const RandomFeatures f = RandomFeatures::draw(1, M, 0.3, 1.0, rng);
  const Eigen::MatrixXd X = rng.uniform_matrix(n, 1);
  // A source message with Sigma^-1 ~ 0: variance ~ 0, the mean ranks y = phi^T nu exactly.
  const Eigen::VectorXd nu = rng.normal_vector(M);
  const SourcePosterior s(nu, 1e-30 * Eigen::MatrixXd::Identity(M, M), 1.0);
  const Eigen::MatrixXd Phi = f.features(X);
  const Eigen::VectorXd y = Phi * nu;
  RngStream a(306), b(306);
  const Eigen::VectorXd L = independent_rank_losses(s, Phi, y, 50, a);
  CHECK(L.maxCoeff() == 0.0);
  CHECK(independent_rank_losses(s, Phi, -y, 50, b).minCoeff() == n * (n - 1));
  RngStream c(307), d(307);
  const SourcePosterior t = source_from_data(f, X, y, 0.1);
  CHECK(independent_rank_losses(t, Phi, y, 30, c) == independent_rank_losses(t, Phi, y, 30, d));
}

TEST_CASE("joint losses are rank_losses of the source's joint samples") {
  RngStream rng(308);
  const RandomFeatures f = RandomFeatures::draw(2, 25, 0.3, 1.0, rng);
  const Eigen::MatrixXd Xs = rng.uniform_matrix(15, 2), X = rng.uniform_matrix(7, 2);
  const SourcePosterior s = source_from_data(f, Xs, ensemble_test::bumps(Xs, 0.2), 0.05);
  const Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
  const Eigen::MatrixXd Phi = f.features(X);
  RngStream a(309), b(309);
  const Eigen::VectorXd L = joint_rank_losses(s, Phi, y, 40, a);
  const Eigen::MatrixXd F = s.sample(Phi, 40, b);
  for (int k = 0; k < 40; ++k) CHECK(L[k] == loss_loop(F.col(k), y));
}

TEST_CASE("target leave-one-out losses: refit without x_j, joint samples, pairs (j, k)") {
  RngStream rng(310);
  const int n = 7, S = 30;
  const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
  const Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
  const ExactGp gp(2, {0.4, 1.0, 1e-3});
  RngStream a(311), b(311);
  const Eigen::VectorXd L = target_rank_losses(gp, X, y, S, a);
  // Written out: a fresh ExactGp per left-out point, the same draws in the same order.
  Eigen::VectorXd ref = Eigen::VectorXd::Zero(S);
  for (int j = 0; j < n; ++j) {
    Eigen::MatrixXd Xj(n - 1, 2);
    Eigen::VectorXd yj(n - 1);
    for (int i = 0, r = 0; i < n; ++i)
      if (i != j) {
        Xj.row(r) = X.row(i);
        yj[r++] = y[i];
      }
    ExactGp model(2, {0.4, 1.0, 1e-3});
    model.fit(Xj, yj);
    const Eigen::MatrixXd F = model.sample(X, S, b);
    for (int s = 0; s < S; ++s)
      for (int k = 0; k < n; ++k)
        if (k != j) ref[s] += (y[j] < y[k]) != (F(j, s) < F(k, s));
  }
  CHECK(L == ref);
  // The generic path (refits through the Surrogate interface) gives the same losses.
  RngStream c(311);
  CHECK(target_rank_losses(Wrapped(gp), X, y, S, c) == ref);
  CHECK_THROWS_AS(target_rank_losses(gp, X.topRows(1), y.head(1), S, a), std::invalid_argument);
}

TEST_CASE("LeaveOneOut posteriors equal ExactGp refits without point j") {
  RngStream rng(312);
  for (auto [n, noise, prior] :
       {std::tuple{6, 1e-2, 0.0}, std::tuple{30, 1e-4, 0.7}, std::tuple{53, 1e-6, 0.0}}) {
    const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
    const Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
    ExactGp::Options o;
    o.prior_mean = prior;
    const ExactGp gp(2, {0.3, 1.2, noise}, o);
    const fbosim::ensemble::LeaveOneOut loo(gp, X, y);
    for (int j = 0; j < n; j += 5) {
      const auto [Xj, yj] = without_point(X, y, j);
      ExactGp model(2, {0.3, 1.2, noise}, o);
      model.fit(Xj, yj);
      const auto ref = model.predict_joint(X);
      const auto p = loo.posterior(j);
      CHECK((p.mean - ref.mean).cwiseAbs().maxCoeff() < 1e-8);
      CHECK((p.covariance - ref.covariance).cwiseAbs().maxCoeff() < 1e-9);
    }
  }
}

TEST_CASE("LeaveOneOut posteriors with Matern and ARD kernels equal dense solves without point j") {
  // Issue 29: RGPE's leave-one-out target model with gp.kernel / gp.ard. The reference is the
  // posterior written out (the kernel entry by entry, an LU solve on the other n - 1 points).
  using fbosim::gp::KernelFamily;
  RngStream rng(313);
  const int n = 20;
  const Eigen::MatrixXd X = rng.uniform_matrix(n, 2);
  const Eigen::VectorXd y = ensemble_test::bumps(X, 0.0);
  for (const KernelFamily f : {KernelFamily::matern32, KernelFamily::matern52, KernelFamily::se}) {
    for (const Eigen::VectorXd& ls : std::vector<Eigen::VectorXd>{
             Eigen::Vector2d(0.15, 0.5), Eigen::VectorXd::Constant(1, 0.3)}) {
      INFO(fbosim::gp::to_string(f) << ", " << ls.size() << " length scales");
      const fbosim::gp::KernelHyper h{f, ls, 1.2, 1e-3};
      ExactGp::Options o;
      o.prior_mean = 0.4;
      const ExactGp gp(2, h, o);
      const fbosim::ensemble::LeaveOneOut loo(gp, X, y);
      for (int j = 0; j < n; j += 3) {
        const auto [Xj, yj] = without_point(X, y, j);
        const fbosim::testing::DensePosterior d =
            fbosim::testing::dense_posterior(h, Xj, yj, X, gp.diagonal_noise(), 0.4);
        const auto p = loo.posterior(j);
        CHECK((p.mean - d.mean).cwiseAbs().maxCoeff() < 1e-8);
        CHECK((p.covariance - d.cov).cwiseAbs().maxCoeff() < 1e-9);
      }
    }
  }
}

#include "algorithms/ensemble/rank_losses.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/ensemble/leave_one_out.hpp"
#include "algorithms/surrogate/exact_gp.hpp"
#include "algorithms/surrogate/joint_gaussian.hpp"
#include "core/cancellation.hpp"

namespace fbosim::ensemble {

namespace {
void check(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// Standard normal CDF via erfc (full relative accuracy in the lower tail).
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// q in [0, 1] -> T with P(U < T / 2^64) = T / 2^64 in (q - 2^-64, q]; q = 1 -> 2^64 - 1.
std::uint64_t threshold(double q) {
  if (!(q > 0.0)) return 0;
  if (q >= 1.0) return std::numeric_limits<std::uint64_t>::max();
  return static_cast<std::uint64_t>(std::ldexp(q, 64));  // exact scaling, then truncation
}

// Number of successes among K independent Bernoulli(T_k / 2^64), U read 16 bits at a time:
// the top 16 bits of U against those of T decide unless equal; a tie is settled by the next
// 48 bits of U (one more engine output) against T's lower 48 bits (equal: U >= T, a failure).
// buf: ceil(K / 4) engine outputs, read as 16-bit chunks (in memory order).
int count_successes(const std::vector<std::uint16_t>& top, const std::vector<std::uint64_t>& T,
                    std::vector<std::uint64_t>& buf, std::vector<std::uint16_t>& u,
                    boost::random::mt19937_64& engine) {
  const std::size_t K = T.size();
  for (std::uint64_t& r : buf) r = engine();
  std::memcpy(u.data(), buf.data(), K * sizeof(std::uint16_t));
  int count = 0;
  bool ties = false;
  // 16-bit counters (blocks below 2^16) keep the loop in 8-lane 16-bit vector instructions.
  for (std::size_t k0 = 0; k0 < K; k0 += 0xFFFF) {
    const std::size_t k1 = std::min(K, k0 + 0xFFFF);
    std::uint16_t c = 0, t = 0;
    for (std::size_t k = k0; k < k1; ++k) {  // vectorised: no branches
      c = static_cast<std::uint16_t>(c + (u[k] < top[k]));
      t = static_cast<std::uint16_t>(t | (u[k] == top[k]));
    }
    count += c;
    ties = ties || t != 0;
  }
  if (!ties) return count;
  for (std::size_t k = 0; k < K; ++k) {
    if (u[k] != top[k]) continue;
    const std::uint64_t low = engine() >> 16;  // U's next 48 bits
    count += low < (T[k] & 0xFFFFFFFFFFFFULL);
  }
  return count;
}
}  // namespace

Eigen::VectorXd rank_losses(const Eigen::MatrixXd& F, const Eigen::VectorXd& y) {
  check(F.rows() == y.size(), "rank_losses: F must have one row per target point");
  const Eigen::Index n = y.size();
  // Ft (S x n): column j holds F_s[j] for all s, so a pair is one vectorised pass over s.
  const Eigen::MatrixXd Ft = F.transpose();
  Eigen::ArrayXd loss = Eigen::ArrayXd::Zero(F.cols());
  for (Eigen::Index j = 0; j < n; ++j) {
    core::throw_if_cancelled();  // n - j pairs of S samples (ensemble.samples: up to 10^5)
    for (Eigen::Index k = j + 1; k < n; ++k) {
      // (j, k): (y_j < y_k) xor (F_j < F_k); (k, j): (y_k < y_j) xor (F_k < F_j).
      const bool jk = y[j] < y[k], kj = y[k] < y[j];
      const auto a = Ft.col(j).array(), b = Ft.col(k).array();
      loss += ((a < b) != jk).cast<double>() + ((b < a) != kj).cast<double>();
    }
  }
  return loss.matrix();
}

Eigen::VectorXd target_rank_losses(const surrogate::Surrogate& target, const Eigen::MatrixXd& X,
                                   const Eigen::VectorXd& y, int samples, core::RngStream& rng) {
  const Eigen::Index n = y.size();
  check(X.rows() == n && X.cols() == target.dim(),
        "target_rank_losses: X must be n x " + std::to_string(target.dim()) + ", y n");
  check(n >= 2 && samples >= 1, "target_rank_losses: need n >= 2 points and samples >= 1");
  Eigen::ArrayXd loss = Eigen::ArrayXd::Zero(samples);
  auto add = [&](Eigen::Index j, const Eigen::MatrixXd& F) {  // F: n x S draws of f^{(-j)}
    core::throw_if_cancelled();                               // each j: n x S draws
    const Eigen::MatrixXd Ft = F.transpose();                 // S x n
    for (Eigen::Index k = 0; k < n; ++k)
      if (k != j) loss += ((Ft.col(j).array() < Ft.col(k).array()) != (y[j] < y[k])).cast<double>();
  };
  if (const auto* gp = dynamic_cast<const surrogate::ExactGp*>(&target)) {
    // The same posteriors and the same draws as the refits below (ExactGp::sample is
    // Surrogate::sample: sample_joint_gaussian of predict_joint), at O(n^2) per point.
    const LeaveOneOut loo(*gp, X, y);
    for (Eigen::Index j = 0; j < n; ++j) {
      const surrogate::JointPrediction p = loo.posterior(j);
      add(j, surrogate::sample_joint_gaussian(p.mean, p.covariance, samples, rng));
    }
    return loss.matrix();
  }
  Eigen::MatrixXd Xj(n - 1, X.cols());
  Eigen::VectorXd yj(n - 1);
  std::unique_ptr<surrogate::Surrogate> model = target.clone();
  for (Eigen::Index j = 0; j < n; ++j) {
    // The data without point j (rows before j, then rows after j).
    Xj.topRows(j) = X.topRows(j);
    Xj.bottomRows(n - 1 - j) = X.bottomRows(n - 1 - j);
    yj.head(j) = y.head(j);
    yj.tail(n - 1 - j) = y.tail(n - 1 - j);
    model->fit(Xj, yj);
    add(j, model->sample(X, samples, rng));
  }
  return loss.matrix();
}

Eigen::VectorXd joint_rank_losses(const SourcePosterior& source, const Eigen::MatrixXd& Phi,
                                  const Eigen::VectorXd& y, int samples, core::RngStream& rng) {
  check(Phi.rows() == y.size(), "joint_rank_losses: Phi must have one row per target point");
  check(samples >= 1, "joint_rank_losses: samples must be >= 1");
  return rank_losses(source.sample(Phi, samples, rng), y);
}

Eigen::MatrixXd pair_discord_probabilities(const Eigen::VectorXd& mean, const Eigen::VectorXd& var,
                                           const Eigen::VectorXd& y) {
  const Eigen::Index n = y.size();
  check(mean.size() == n && var.size() == n,
        "pair_discord_probabilities: mean, var and y must have the same size");
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index k = j + 1; k < n; ++k) {
      // p = P(a_j < b_k); the reverse order has P(a_k < b_j) = 1 - p. The smaller of the two
      // comes from erfc (tail accuracy), the other as its complement.
      const double s = std::sqrt(var[j] + var[k]);
      double p;
      if (s > 0.0) {
        const double z = (mean[k] - mean[j]) / s;
        p = z <= 0.0 ? normal_cdf(z) : 1.0 - normal_cdf(-z);
      } else {
        p = mean[j] < mean[k] ? 1.0 : 0.0;
      }
      // With independent draws, a_k < b_j has probability 1 - p exactly when s > 0; with
      // s = 0 both comparisons are strict, so equal means give p = 0 both ways.
      const double p_rev = s > 0.0 ? 1.0 - p : (mean[k] < mean[j] ? 1.0 : 0.0);
      // Misranked (j, k): (y_j < y_k) xor (a_j < b_k).
      q(j, k) = y[j] < y[k] ? 1.0 - p : p;
      q(k, j) = y[k] < y[j] ? 1.0 - p_rev : p_rev;
    }
  return q;
}

Eigen::VectorXd independent_rank_losses(const SourcePosterior& source, const Eigen::MatrixXd& Phi,
                                        const Eigen::VectorXd& y, int samples,
                                        core::RngStream& rng) {
  check(Phi.rows() == y.size(), "independent_rank_losses: Phi must have one row per target point");
  check(samples >= 1, "independent_rank_losses: samples must be >= 1");
  const Eigen::Index n = y.size();
  const surrogate::Prediction pred = source.predict(Phi);
  const Eigen::MatrixXd q = pair_discord_probabilities(pred.mean, pred.variance, y);
  std::vector<std::uint64_t> T;
  T.reserve(static_cast<std::size_t>(n * (n - 1)));
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index k = 0; k < n; ++k)
      if (k != j) T.push_back(threshold(q(j, k)));
  const std::size_t K = T.size();
  std::vector<std::uint16_t> top(K), u(K);
  std::vector<std::uint64_t> buf((K + 3) / 4);
  for (std::size_t k = 0; k < K; ++k) top[k] = static_cast<std::uint16_t>(T[k] >> 48);
  Eigen::VectorXd loss(samples);
  for (int s = 0; s < samples; ++s) {
    core::throw_if_cancelled();  // n (n - 1) Bernoullis per sample
    loss[s] = count_successes(top, T, buf, u, rng.engine());
  }
  return loss;
}

}  // namespace fbosim::ensemble

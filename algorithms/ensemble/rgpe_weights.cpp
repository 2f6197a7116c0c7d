#include "algorithms/ensemble/rgpe_weights.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/ensemble/rank_losses.hpp"

namespace fbosim::ensemble {

namespace {
std::vector<double> sorted(const Eigen::VectorXd& v) {
  std::vector<double> a(v.data(), v.data() + v.size());
  std::sort(a.begin(), a.end());
  return a;
}
}  // namespace

double percentile_linear(const Eigen::VectorXd& v, double pct) {
  if (v.size() == 0) throw std::invalid_argument("percentile_linear: empty input");
  if (!(pct >= 0.0 && pct <= 100.0))
    throw std::invalid_argument("percentile_linear: pct must be in [0, 100], got " +
                                std::to_string(pct));
  const std::vector<double> a = sorted(v);
  const double h = static_cast<double>(a.size() - 1) * pct / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, a.size() - 1);
  return a[lo] + (h - static_cast<double>(lo)) * (a[hi] - a[lo]);
}

double median(const Eigen::VectorXd& v) {
  if (v.size() == 0) throw std::invalid_argument("median: empty input");
  const std::vector<double> a = sorted(v);
  const std::size_t n = a.size();
  return n % 2 == 1 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
}

Eigen::VectorXd rgpe_weights_from_losses(const Eigen::MatrixXd& losses, double discarded_loss) {
  const Eigen::Index models = losses.rows(), S = losses.cols();
  if (models < 1 || S < 1)
    throw std::invalid_argument(
        "rgpe_weights_from_losses: need >= 1 model (the target) and >= 1 "
        "sample");
  if (!losses.allFinite())
    throw std::invalid_argument("rgpe_weights_from_losses: losses must be finite");
  const Eigen::Index target = models - 1;
  Eigen::MatrixXd L = losses;
  const double p95 = percentile_linear(L.row(target).transpose(), 95.0);
  for (Eigen::Index m = 0; m < target; ++m)
    if (median(L.row(m).transpose()) > p95) L.row(m).setConstant(discarded_loss);
  Eigen::VectorXi wins = Eigen::VectorXi::Zero(models);
  for (Eigen::Index s = 0; s < S; ++s) {
    Eigen::Index best = 0;
    for (Eigen::Index m = 1; m < models; ++m)
      if (L(m, s) < L(best, s)) best = m;  // strict: the lowest index among tied sources
    if (L(target, s) == L(best, s)) best = target;
    ++wins[best];
  }
  return wins.cast<double>() / static_cast<double>(S);
}

Eigen::VectorXd rgpe_weights(const std::vector<SourcePosterior>& sources,
                             const rff::RandomFeatures& features,
                             const surrogate::Surrogate& target, const Eigen::MatrixXd& X,
                             const Eigen::VectorXd& y, core::RngStream& rng,
                             const RgpeOptions& options) {
  const Eigen::Index N = static_cast<Eigen::Index>(sources.size()), n = y.size();
  if (X.rows() != n || X.cols() != features.dim())
    throw std::invalid_argument("rgpe_weights: X must be n x " + std::to_string(features.dim()) +
                                " and y an n-vector");
  if (options.samples < 1)
    throw std::invalid_argument("rgpe_weights: samples must be >= 1, got " +
                                std::to_string(options.samples));
  for (const SourcePosterior& s : sources)
    if (s.size() != features.size())
      throw std::invalid_argument("rgpe_weights: a source has M = " + std::to_string(s.size()) +
                                  ", the features M = " + std::to_string(features.size()));
  Eigen::VectorXd w = Eigen::VectorXd::Zero(N + 1);
  if (n < 2) {
    w[N] = 1.0;
    return w;
  }
  Eigen::MatrixXd losses(N + 1, options.samples);
  losses.row(N) = target_rank_losses(target, X, y, options.samples, rng).transpose();
  const Eigen::MatrixXd Phi = features.features(X);  // n x M, shared by all sources
  for (Eigen::Index m = 0; m < N; ++m) {
    const SourcePosterior& s = sources[static_cast<std::size_t>(m)];
    losses.row(m) = (options.variant == Variant::authors
                         ? independent_rank_losses(s, Phi, y, options.samples, rng)
                         : joint_rank_losses(s, Phi, y, options.samples, rng))
                        .transpose();
  }
  return rgpe_weights_from_losses(losses, options.discarded_loss);
}

}  // namespace fbosim::ensemble

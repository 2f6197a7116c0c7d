#include "algorithms/gp/slice_sampler.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fbosim::gp {

namespace {
std::string describe(const Eigen::VectorXd& x) {
  std::ostringstream s;
  s << x.transpose();
  return s.str();
}
}  // namespace

void SliceSampler::sweep(const LogDensity& log_f, Eigen::VectorXd& x, double& log_fx,
                         core::RngStream& rng) const {
  const double w = options_.width;
  const int m = options_.max_steps;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    const double x0 = x[k];
    // The slice {x : log f(x) > log y}, y = f(x0) U, U ~ U(0, 1]: log y = log f(x0) - Exp(1).
    const double log_y = log_fx + std::log1p(-rng.uniform());
    Eigen::VectorXd z = x;
    const auto at = [&](double v) {
      z[k] = v;
      const double l = log_f(z);
      return std::isnan(l) ? -INFINITY : l;
    };
    // Stepping out (Neal 2003, fig. 3): an interval of width w placed at random around x0,
    // grown by w at each end while that end is inside the slice, at most m steps in all.
    double lo = x0 - w * rng.uniform();
    double hi = lo + w;
    const auto j_steps = static_cast<int>(std::floor(m * rng.uniform()));
    for (int j = j_steps; j > 0 && at(lo) > log_y; --j) lo -= w;
    for (int j = m - 1 - j_steps; j > 0 && at(hi) > log_y; --j) hi += w;
    // Shrinkage (fig. 5): draw uniformly in the interval until the draw is in the slice,
    // shrinking the interval towards x0 at each rejection (x0 is in the slice: it ends).
    for (;;) {
      const double x1 = rng.uniform(lo, hi);
      const double l1 = at(x1);
      if (l1 > log_y) {
        x[k] = x1;
        log_fx = l1;
        break;
      }
      if (x1 < x0)
        lo = x1;
      else
        hi = x1;
      if (!(hi - lo > 0)) break;  // rounding only: keep x0
    }
  }
}

Eigen::MatrixXd SliceSampler::chain(const LogDensity& log_f, const Eigen::VectorXd& x0, int samples,
                                    int burn_in, int thin, core::RngStream& rng) const {
  if (samples < 1 || burn_in < 0 || thin < 1)
    throw std::invalid_argument("SliceSampler::chain: need samples >= 1, burn_in >= 0, thin >= 1");
  Eigen::VectorXd x = x0;
  double log_fx = log_f(x);
  if (!std::isfinite(log_fx))
    throw std::invalid_argument("SliceSampler::chain: the start has no finite log density (" +
                                std::to_string(log_fx) + " at " + describe(x0) + ")");
  for (int s = 0; s < burn_in; ++s) sweep(log_f, x, log_fx, rng);
  Eigen::MatrixXd kept(samples, x.size());
  for (int s = 0; s < samples; ++s) {
    for (int t = 0; t < thin; ++t) sweep(log_f, x, log_fx, rng);
    kept.row(s) = x.transpose();
  }
  return kept;
}

}  // namespace fbosim::gp

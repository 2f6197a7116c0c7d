#pragma once
// Univariate slice sampling with stepping out and shrinkage (Neal 2003, "Slice sampling", Ann.
// Statist. 31(3), figs. 3 and 5), applied coordinate by coordinate: one sweep updates every
// coordinate in turn, each update leaving the target density invariant. No step size to tune
// (the initial width only affects speed), no gradients, and the draws depend only on the
// stream, so a chain is reproducible for any thread count.
#include <functional>

#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::gp {

class SliceSampler {
 public:
  /// log of an unnormalised density; -infinity outside its support (and for NaN inputs).
  using LogDensity = std::function<double(const Eigen::VectorXd&)>;

  struct Options {
    double width = 1.0;  ///< w: initial interval width per coordinate (Neal 2003, fig. 3)
    int max_steps = 50;  ///< m: at most m steps of w when stepping out (fig. 3)
  };

  SliceSampler() = default;
  explicit SliceSampler(Options options) : options_(options) {}

  /// One sweep from x (its log density log_fx finite): every coordinate in order 0, 1, ...
  /// is replaced by a draw from the slice through it. Updates x and log_fx in place.
  void sweep(const LogDensity& log_f, Eigen::VectorXd& x, double& log_fx,
             core::RngStream& rng) const;

  /// burn_in sweeps from x0, then `samples` kept states, one every `thin` sweeps: a samples x
  /// dim matrix, one state per row. Throws std::invalid_argument if log_f(x0) is not finite or
  /// a count is out of range (samples >= 1, burn_in >= 0, thin >= 1).
  Eigen::MatrixXd chain(const LogDensity& log_f, const Eigen::VectorXd& x0, int samples,
                        int burn_in, int thin, core::RngStream& rng) const;

  const Options& options() const { return options_; }

 private:
  Options options_;
};

}  // namespace fbosim::gp

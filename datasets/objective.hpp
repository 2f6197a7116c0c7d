#pragma once
// What one agent optimises (datasets/ knows nothing of federation). Inputs are normalised to
// the unit box [0,1]^D; objectives map them to their own parameter ranges.
#include <optional>
#include <string>

#include <Eigen/Core>

#include "core/box.hpp"
#include "core/convex_lipschitz_score.hpp"
#include "core/rng.hpp"

namespace fbosim::datasets {

class Objective {
 public:
  virtual ~Objective() = default;
  virtual const core::Domain& domain() const = 0;
  /// The noise-free value f(x) (x: d-vector in the domain). Used for regret.
  virtual double evaluate(const Eigen::VectorXd& x) const = 0;
  /// A noisy observation y = f(x) + noise; all randomness from rng.
  virtual double observe(const Eigen::VectorXd& x, core::RngStream& rng) const = 0;
  /// max_x f(x), when known (regret is reported only then).
  virtual std::optional<double> optimum() const { return std::nullopt; }
  /// The constants of Kusner et al.'s Assumption 2 that this objective guarantees for its
  /// validation score (core/convex_lipschitz_score.hpp), when it satisfies it: what their
  /// Algorithm 3's release (dp_bo's release.mechanism: kusner_lipschitz) needs. None by default.
  virtual std::optional<core::ConvexLipschitzScore> convex_lipschitz_score() const {
    return std::nullopt;
  }

  /// One query as the engine makes it: the observation y and the value f reported in the
  /// traces. The default draws y = observe(x) and f = evaluate(x); objectives whose value is
  /// expensive (training a model) override it to evaluate once, with y = f = the score.
  struct Evaluation {
    double y;
    double f;
  };
  virtual Evaluation query(const Eigen::VectorXd& x, core::RngStream& rng) const {
    const double y = observe(x, rng);
    return {y, evaluate(x)};
  }

  /// Where the engine makes a query: the run and the round (-1 where a query belongs to no
  /// round, e.g. a final release's). User objectives (datasets/command, datasets/python) pass
  /// them on to the user's code and name them in errors; the default ignores them.
  struct QueryContext {
    int run = -1;
    int round = -1;
  };
  virtual Evaluation query_at(const Eigen::VectorXd& x, core::RngStream& rng,
                              const QueryContext& /*where*/) const {
    return query(x, rng);
  }
};

}  // namespace fbosim::datasets

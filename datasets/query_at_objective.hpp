// An objective answered by query_at alone: the user-objective families (datasets/command,
// datasets/python) pass every query's agent, run and round on to the user's code, so evaluate,
// observe and query ask query_at too (with no run or round: a query outside the engine's rounds).
#pragma once

#include "datasets/objective.hpp"

namespace fbosim::datasets {

class QueryAtObjective : public Objective {
 public:
  /// The noise-free f the user's code reports (its y where it reports none).
  double evaluate(const Eigen::VectorXd& x) const override {
    core::RngStream rng(0);
    return query_at(x, rng, {}).f;
  }
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return query_at(x, rng, {}).y;
  }
  Evaluation query(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return query_at(x, rng, {});
  }
  /// Every query ends here: a subclass must answer it (the base's default would call query()).
  Evaluation query_at(const Eigen::VectorXd& x, core::RngStream& rng,
                      const QueryContext& where) const override = 0;
};

}  // namespace fbosim::datasets

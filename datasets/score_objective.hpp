#pragma once
// An objective whose value is the validation score of a model trained at x (the real-world
// families): one training per query gives both y and f (y = f = score); evaluate(x) trains with
// a fixed stream per agent, so it is a pure function of x. No known optimum.
#include <string>

#include "datasets/objective.hpp"

namespace fbosim::datasets {

class ScoreObjective : public Objective {
 public:
  /// evaluate_stream: the purpose of evaluate()'s fixed stream, indexed by agent.
  ScoreObjective(int dim, std::string evaluate_stream, int agent)
      : stream_(std::move(evaluate_stream)), agent_(agent) {
    domain_.dim = dim;
  }
  const core::Domain& domain() const override { return domain_; }
  double evaluate(const Eigen::VectorXd& x) const override {
    core::RngStream rng = core::RngFactory(0, 0).stream(stream_, agent_);
    return score(x, rng);
  }
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return score(x, rng);
  }
  Evaluation query(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    const double s = score(x, rng);
    return {s, s};
  }

 protected:
  /// Trains at x with all randomness from rng and returns the validation score.
  virtual double score(const Eigen::VectorXd& x, core::RngStream& rng) const = 0;

 private:
  std::string stream_;
  int agent_;
  core::Domain domain_;
};

}  // namespace fbosim::datasets

#pragma once
// GP-UCB on a finite candidate set (Srinivas et al. 2010), alone: the modeler of PO-GP-UCB
// (Kharkovskii, Dai & Low 2020, Alg. 2: argmax over the released rows z of
// mu_t(z) + beta_t^1/2 sigma_t(z), beta_t = 2 log(n t^2 pi^2 / (6 delta'))), its non-private
// baseline on the inputs X (sec. 4), and the tuner of Kusner et al. 2015 (Alg. 1, finite
// hyperparameter set). The posterior over the candidates is updated in O(n t) per observation
// (CandidateGp) and the score is evaluated for all n candidates at once.
// The candidates (the GP's inputs, n x q) and the points (what is queried, n x d) are separate:
// PO-GP-UCB models the released Z but queries the curator's row i of X ("the curator answers by
// row index"); the other uses pass the same matrix twice.
#include <deque>
#include <vector>

#include "algorithms/gp/se_kernel.hpp"
#include "algorithms/protocol/agent_policy.hpp"
#include "algorithms/surrogate/candidate_gp.hpp"

namespace fbosim::agents {

struct GpUcbOptions {
  gp::SeHyper hyper;  ///< fixed (known) hyperparameters: the papers' theory assumes them
  /// gp.mean: the GP's constant prior mean m0 (the papers: 0). The model is f = m0 + g with g
  /// a zero-mean GP, so mu_t = m0 + the zero-mean posterior mean on y - m0 and sigma_t is
  /// unchanged: the scores are m0 + those of mean 0 on y - m0 (the same argmax, and the same
  /// confidence bounds for f ~ GP(m0, k) as Srinivas et al.'s for f ~ GP(0, k)).
  double prior_mean = 0.0;
  /// delta' of beta_t = 2 log(n t^2 pi^2 / (6 delta')), t the step (observations so far + 1,
  /// the initial design included) [choice: the papers count the steps from 1 and leave the
  /// initial design open].
  double delta = 0.025;
  /// The UCB bonus: beta^1/2 sigma (the papers), or beta^1/2 sigma^2 (the PO-GP-UCB authors'
  /// code as issue #12 reports it: the posterior variance in place of the deviation).
  enum class Bonus { deviation, variance } bonus = Bonus::deviation;
  /// Distinct uniformly random candidates queried in round 0 (at t = 1 every candidate ties: a
  /// random initial point is the tie broken at random).
  int init_points = 1;
  /// Never query a candidate twice (PO-GP-UCB, issue #12); once all were queried, repeats are
  /// allowed again.
  bool exclude_queried = true;
};

/// beta_t = 2 log(n t^2 pi^2 / (6 delta)) (Srinivas et al. 2010, Thm. 1; Kharkovskii et al.
/// 2020, Alg. 2 line 3). n >= 1, t >= 1, delta in (0, 1).
double ucb_beta(long long n, int t, double delta);

class GpUcbAgent final : public protocol::AgentPolicy {
 public:
  /// candidates: n x q (the GP's inputs); points: n x d (what the agent queries, row by row).
  GpUcbAgent(int id, Eigen::MatrixXd candidates, Eigen::MatrixXd points, GpUcbOptions options);

  std::vector<Eigen::VectorXd> initial_points(core::RngStream& rng) const override;
  /// The UCB maximiser over the candidates not yet queried (ties: the lowest index).
  protocol::Proposal propose(int round, const protocol::Broadcast& broadcast, core::RngStream& rng,
                             const core::RngFactory& streams) override;
  /// x must be the point of the oldest query not yet observed (the engine observes in order).
  void observe(const Eigen::VectorXd& x, double y) override;
  std::optional<protocol::Message> report(int, core::RngStream&) override { return std::nullopt; }

  /// The UCB scores of every candidate at the next step (queried ones -inf when excluded).
  Eigen::VectorXd scores() const;
  const surrogate::CandidateGp& posterior() const { return gp_; }
  /// Candidate indices queried and their observations, in order.
  const std::vector<Eigen::Index>& queried() const { return queried_; }
  const std::vector<double>& observations() const { return ys_; }
  const Eigen::MatrixXd& points() const { return points_; }
  const GpUcbOptions& options() const { return options_; }

 private:
  int id_;
  Eigen::MatrixXd points_;
  GpUcbOptions options_;
  surrogate::CandidateGp gp_;
  std::vector<bool> seen_;
  long long distinct_ = 0;
  // The queries proposed but not yet observed (initial design: several), oldest first.
  mutable std::deque<Eigen::Index> pending_;
  std::vector<Eigen::Index> queried_;
  std::vector<double> ys_;
};

}  // namespace fbosim::agents

#pragma once
// Argmax of a score over a finite candidate set (a grid domain such as FTS sec. 5.1's 1000
// points, or PO-GP-UCB's finite Z). Exact and deterministic: ties go to the lowest index.
#include <functional>

#include <Eigen/Core>

namespace fbosim::acq {

/// The chosen candidate.
struct CandidateChoice {
  Eigen::Index index = -1;  ///< row of the candidate set
  Eigen::VectorXd x;        ///< that row (d-vector)
  double value = 0.0;       ///< its score
};

class CandidateArgmax {
 public:
  /// Scores all candidates at once: X m x d (one candidate per row) -> m-vector.
  using BatchScore = std::function<Eigen::VectorXd(const Eigen::MatrixXd& X)>;

  /// candidates: m x d, one point per row, m >= 1.
  explicit CandidateArgmax(Eigen::MatrixXd candidates);

  /// argmax over the candidates of score(candidates).
  CandidateChoice maximise(const BatchScore& score) const;
  /// argmax of precomputed values (an m-vector aligned with the candidates).
  CandidateChoice maximise_values(const Eigen::VectorXd& values) const;

  /// Index of the largest entry, the lowest such index on ties; NaN entries never win.
  /// Throws std::invalid_argument if values is empty or all NaN.
  static Eigen::Index argmax(const Eigen::VectorXd& values);

  const Eigen::MatrixXd& candidates() const { return candidates_; }

 private:
  Eigen::MatrixXd candidates_;
};

}  // namespace fbosim::acq

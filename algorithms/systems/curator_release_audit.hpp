#pragma once
// PO-GP-UCB's curator release (Kharkovskii, Dai & Low 2020, Algorithm 1) as an auditable release
// (protocol/auditable_release.hpp): the config's dataset X (the objective's grid, normalised by
// curator.max_norm as a run does) and a neighbour X' whose row 0 moved by a unit vector
// (Definition 1), each released by the real curator with an independent projection.
// Statistic: s = |u^T Z| / |Z|_F with u a unit vector orthogonal to the all-ones vector and to
// the columns of the centred X, with weight on row 0; Z lies in the column space of the centred
// X~ = the centred X's, so s is rounding (~1e-16) for X and not for X' (the privacy doubt,
// docs/PRIVATE_BO.md). The claim is the paper's Theorem 1 for one release.
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "algorithms/curator/curator.hpp"
#include "algorithms/protocol/auditable_release.hpp"

namespace fbosim::systems {

class CuratorReleaseAudit final : public protocol::AuditableRelease {
 public:
  /// X: the normalised dataset (n x d, n > d). `lift`: "paper" or "authors", for the report.
  CuratorReleaseAudit(Eigen::MatrixXd X, const curator::CuratorOptions& options, std::string lift);

  std::string name() const override {
    return "PO-GP-UCB's curator release (Algorithm 1) of the config's dataset";
  }
  /// ("dataset", "neighbour").
  std::pair<std::string, std::string> inputs() const override { return {"dataset", "neighbour"}; }
  /// Theorem 1's (epsilon, delta) (disputed: docs/PRIVATE_BO.md).
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

 private:
  Eigen::MatrixXd X_, X_neighbour_;
  curator::CuratorOptions options_;
  std::string lift_;
  Eigen::VectorXd u_;  ///< the separating vector of row 0
};

}  // namespace fbosim::systems

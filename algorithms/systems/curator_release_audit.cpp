#include "algorithms/systems/curator_release_audit.hpp"

#include <fmt/format.h>

#include "algorithms/curator/separating_vector.hpp"

namespace fbosim::systems {

CuratorReleaseAudit::CuratorReleaseAudit(Eigen::MatrixXd X, const curator::CuratorOptions& options,
                                         std::string lift)
    : X_(std::move(X)), options_(options), lift_(std::move(lift)) {
  X_neighbour_ = X_;
  X_neighbour_(0, 0) += 1;  // row 0 moved by a unit vector: a neighbour under Definition 1
  u_ = curator::separating_vector(X_, 0);
}

privacy::DpEvent CuratorReleaseAudit::event() const {
  return privacy::DpEvent::epsilon_delta(options_.epsilon, options_.delta);
}

double CuratorReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  const Eigen::MatrixXd Z = curator::release(neighbour ? X_neighbour_ : X_, options_, rng).Z;
  return (u_.transpose() * Z).norm() / Z.norm();
}

std::vector<protocol::AuditDetail> CuratorReleaseAudit::details() const {
  const curator::Transform t = curator::transform(X_, options_);
  return {
      {"rows", fmt::format("{}", X_.rows())},
      {"dim", fmt::format("{}", X_.cols())},
      {"r", fmt::format("{}", options_.r)},
      {"sigma_min", fmt::format("{}", t.sigma_min)},
      {"omega", fmt::format("{}", t.omega)},
      {"branch", t.lifted ? "else" : "if"},
      {"lift", lift_},
      {"neighbour", "row 0 moved by a unit vector (Definition 1)"},
      {"statistic", "|u^T Z| / |Z|, u orthogonal to 1 and to the centred X"},
  };
}

}  // namespace fbosim::systems

#pragma once
// The mechanisms of the DP release of BO results (algorithms/release) as auditable releases
// (protocol/auditable_release.hpp), each on the worst pair of inputs its sensitivity allows.
// They audit the mechanism given its sensitivity: that the noise matches the claimed epsilon.
// Whether the sensitivity itself holds (Kusner et al.'s Theorems 1, 3 and 5 [reconstructed], a
// bound that holds with probability 1 - delta under the GP prior) no audit of the mechanism
// can tell.
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "algorithms/protocol/auditable_release.hpp"
#include "algorithms/release/private_selection.hpp"

namespace fbosim::systems {

/// The exponential mechanism over n candidates with sensitivity c (Kusner et al. Algorithm 1).
/// Scores u = (a, 0, ..., 0) and u' = (a + c, -c, ..., -c) (|u - u'| <= c everywhere), a chosen
/// so that candidate 0 has odds e^-epsilon under u and 1 under u': the odds ratio e^epsilon,
/// the most the claim allows. Statistic: 1 if candidate 0 is released, else 0.
class ExponentialReleaseAudit final : public protocol::AuditableRelease {
 public:
  /// Throws std::invalid_argument for fewer than 2 candidates or a bad noise_scale (which
  /// divides the audited mechanism's epsilon).
  ExponentialReleaseAudit(Eigen::Index candidates, double epsilon, double delta, double sensitivity,
                          double noise_scale);
  std::string name() const override {
    return "the hyperparameter's release by the exponential mechanism (Kusner et al. Alg. 1)";
  }
  std::pair<std::string, std::string> inputs() const override {
    return {"scores", "neighbour_scores"};
  }
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

 private:
  double epsilon_, delta_, sensitivity_, noise_scale_;
  Eigen::VectorXd scores_, neighbour_scores_;
};

/// The Laplace mechanism on one value with sensitivity s (Kusner et al.'s best value): the value
/// v = 0 against v' = s. Statistic: the released value.
class LaplaceReleaseAudit final : public protocol::AuditableRelease {
 public:
  LaplaceReleaseAudit(
      double epsilon, double delta, double sensitivity, double noise_scale,
      std::string name =
          "the best value's release by the Laplace mechanism (Kusner et al. Alg. 2)");
  std::string name() const override { return name_; }
  std::pair<std::string, std::string> inputs() const override {
    return {"value", "neighbour_value"};
  }
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

 private:
  std::string name_;
  double epsilon_, delta_, sensitivity_, noise_scale_;
};

/// Papernot & Steinke's private selection (RepeatAndSelect of the Laplace mechanism) over n
/// candidates: every score 0 against every score s (the sensitivity). Statistic: the released
/// noisy score (the lowest double when K = 0 released nothing).
class SelectionReleaseAudit final : public protocol::AuditableRelease {
 public:
  /// `options`: the calibrated selection; noise_scale divides the audited base epsilon.
  SelectionReleaseAudit(Eigen::Index candidates, const release::PrivateSelectionOptions& options,
                        double noise_scale);
  std::string name() const override {
    return "the selection by Papernot & Steinke's RepeatAndSelect(Laplace)";
  }
  std::pair<std::string, std::string> inputs() const override {
    return {"scores", "neighbour_scores"};
  }
  privacy::DpEvent event() const override;
  double statistic(bool neighbour, core::RngStream& rng) const override;
  std::vector<protocol::AuditDetail> details() const override;

 private:
  Eigen::Index candidates_;
  release::PrivateSelectionOptions intact_, audited_;
  double noise_scale_;
};

}  // namespace fbosim::systems

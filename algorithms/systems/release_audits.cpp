#include "algorithms/systems/release_audits.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/release/mechanisms.hpp"

namespace fbosim::systems {

namespace {

void check_noise_scale(double x) {
  if (!(std::isfinite(x) && x > 0))
    throw std::invalid_argument(
        fmt::format("--noise-scale must be a finite number > 0, got {}", x));
}

std::string number(double x) { return fmt::format("{}", x); }

}  // namespace

ExponentialReleaseAudit::ExponentialReleaseAudit(Eigen::Index candidates, double epsilon,
                                                 double delta, double sensitivity,
                                                 double noise_scale)
    : epsilon_(epsilon), delta_(delta), sensitivity_(sensitivity), noise_scale_(noise_scale) {
  check_noise_scale(noise_scale);
  if (candidates < 2)
    throw std::invalid_argument(fmt::format(
        "the exponential mechanism's audit needs 2 candidates or more, got {}", candidates));
  // Odds of candidate 0 against the rest under u: exp(epsilon a / (2 c)) / (n - 1) = e^-epsilon.
  const double n = static_cast<double>(candidates);
  const double a = 2 * sensitivity / epsilon * (std::log(n - 1) - epsilon);
  scores_ = Eigen::VectorXd::Zero(candidates);
  scores_[0] = a;
  neighbour_scores_ = Eigen::VectorXd::Constant(candidates, -sensitivity);
  neighbour_scores_[0] = a + sensitivity;
}

privacy::DpEvent ExponentialReleaseAudit::event() const {
  return privacy::DpEvent::epsilon_delta(epsilon_, delta_);
}

double ExponentialReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  const Eigen::Index i = release::exponential_mechanism(neighbour ? neighbour_scores_ : scores_,
                                                        epsilon_ / noise_scale_, sensitivity_, rng);
  return i == 0 ? 1.0 : 0.0;
}

std::vector<protocol::AuditDetail> ExponentialReleaseAudit::details() const {
  std::vector<protocol::AuditDetail> out = {
      {"candidates", number(static_cast<double>(scores_.size()))},
      {"sensitivity", number(sensitivity_)},
      {"neighbours", "candidate 0's score up by the sensitivity, every other one down by it"},
      {"statistic", "candidate 0 released"},
  };
  if (noise_scale_ != 1) out.push_back({"noise_scale", number(noise_scale_)});
  return out;
}

LaplaceReleaseAudit::LaplaceReleaseAudit(double epsilon, double delta, double sensitivity,
                                         double noise_scale, std::string name)
    : name_(std::move(name)),
      epsilon_(epsilon),
      delta_(delta),
      sensitivity_(sensitivity),
      noise_scale_(noise_scale) {
  check_noise_scale(noise_scale);
}

privacy::DpEvent LaplaceReleaseAudit::event() const {
  return privacy::DpEvent::epsilon_delta(epsilon_, delta_);
}

double LaplaceReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  return (neighbour ? sensitivity_ : 0.0) +
         release::laplace_noise(sensitivity_ / epsilon_ * noise_scale_, rng);
}

std::vector<protocol::AuditDetail> LaplaceReleaseAudit::details() const {
  std::vector<protocol::AuditDetail> out = {
      {"sensitivity", number(sensitivity_)},
      {"neighbours", "the value against the value plus the sensitivity"},
      {"statistic", "the released value"},
  };
  if (noise_scale_ != 1) out.push_back({"noise_scale", number(noise_scale_)});
  return out;
}

SelectionReleaseAudit::SelectionReleaseAudit(Eigen::Index candidates,
                                             const release::PrivateSelectionOptions& options,
                                             double noise_scale)
    : candidates_(candidates), intact_(options), audited_(options), noise_scale_(noise_scale) {
  check_noise_scale(noise_scale);
  audited_.base_epsilon /= noise_scale;
}

privacy::DpEvent SelectionReleaseAudit::event() const {
  return release::private_selection_event(intact_);
}

double SelectionReleaseAudit::statistic(bool neighbour, core::RngStream& rng) const {
  const double score = neighbour ? intact_.sensitivity : 0.0;
  const release::PrivateSelection sel = release::private_selection(
      candidates_, audited_, [score](Eigen::Index, core::RngStream&) { return score; }, rng);
  return sel.best >= 0 ? sel.noisy_score : std::numeric_limits<double>::lowest();
}

std::vector<protocol::AuditDetail> SelectionReleaseAudit::details() const {
  std::vector<protocol::AuditDetail> out = {
      {"candidates", number(static_cast<double>(candidates_))},
      {"sensitivity", number(intact_.sensitivity)},
      {"base_epsilon", number(intact_.base_epsilon)},
      {"repetitions", fmt::format("mean {}, shape {}", intact_.mean, intact_.shape)},
      {"neighbours", "every score 0 against every score equal to the sensitivity"},
      {"statistic", "the released noisy score"},
  };
  if (noise_scale_ != 1) out.push_back({"noise_scale", number(noise_scale_)});
  return out;
}

}  // namespace fbosim::systems

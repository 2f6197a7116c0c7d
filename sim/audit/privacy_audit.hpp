#pragma once
// Empirical privacy audit of a config's private releases (`fbosim audit`): every release the
// algorithm lists as auditable (protocol::Algorithm::auditable_releases: DP-FTS-DE's server
// release, PO-GP-UCB's curator, dp_bo's final releases) is run many times on the two
// neighbouring inputs it chose, D and D' (protocol/auditable_release.hpp). Test "the release came
// from D'" iff its statistic s > tau: the false-positive and false-negative rates bound epsilon
// from below, epsilon >= log((1 - delta - FNR) / FPR) (and with FPR and FNR swapped) for any
// (epsilon, delta)-DP mechanism (Kairouz et al. 2015; Jagielski, Ullman, Oprea 2020; Nasr et al.
// 2021). tau is chosen on the first half of the trials (D's upper quantiles, the gap between D's
// and D''s statistics when they do not overlap there, and, for a statistic of at most 16
// values, the midpoints between them: the candidate with the largest conservative bound) and
// the rates are measured on the second half, with one-sided Clopper-Pearson upper bounds at
// level (1 - confidence) / 2 each, so the reported lower bound holds with the stated
// confidence. The claim for one release is printed next to it: an EpsilonDelta event's own
// (epsilon, delta); any other event under server.accountant at the config's delta. The audit
// exceeding the claim means the mechanism or its accounting is wrong.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/protocol/auditable_release.hpp"
#include "sim/audit/audit_options.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::audit {

/// The guarantee a release claims for one release.
struct Claim {
  double epsilon = 0, delta = 0;
  std::string accountant;  ///< "stated" for an EpsilonDelta event
};

struct AuditResult {
  std::string release;                         ///< AuditableRelease::name()
  std::pair<std::string, std::string> inputs;  ///< the names of D and D'
  std::vector<protocol::AuditDetail> details;
  int trials = 0;                 ///< per input, in the measuring half
  double threshold = 0;           ///< tau
  long long false_positives = 0;  ///< D trials with s > tau
  long long false_negatives = 0;  ///< D' trials with s <= tau
  double fpr = 0, fpr_upper = 0;  ///< point estimate and Clopper-Pearson upper bound
  double fnr = 0, fnr_upper = 0;
  double max_first = 0;         ///< the largest s of D (measuring half)
  double min_neighbour = 0;     ///< the smallest s of D' (measuring half)
  double epsilon_estimate = 0;  ///< from the point estimates
  double epsilon_lower = 0;     ///< from the upper bounds: holds with `confidence`
  double epsilon_upper = 0;     ///< the claim for one release
  double delta = 0;             ///< the claim's
  std::string accountant;       ///< the claim's
  bool violation() const { return epsilon_lower > epsilon_upper; }
  /// The value of details' entry `name` ("" if none).
  std::string detail(const std::string& name) const;
};

/// Audits every auditable release of the config (one of each kind). Throws
/// std::invalid_argument for bad options or a config whose algorithm releases nothing
/// auditable (naming it).
std::vector<AuditResult> run_audits(const config::ExperimentSpec& spec, const AuditOptions& options,
                                    std::uint64_t seed);
/// The config's auditable releases with the noise scaled by noise_scale (agent 0's objective of
/// run 0 built if they need its domain). Throws std::invalid_argument for a config whose
/// algorithm releases nothing auditable, naming it.
std::vector<std::unique_ptr<const protocol::AuditableRelease>> auditable_releases(
    const config::ExperimentSpec& spec, double noise_scale);
/// Audits one release against `claim`; its trials use the streams "audit.<input name>"(i).
AuditResult audit_release(const protocol::AuditableRelease& release, const Claim& claim,
                          const AuditOptions& options, std::uint64_t seed);
/// The claim for one release of `event`: an EpsilonDelta's own pair, otherwise
/// spec.server.accountant at spec.delta(). Throws what the accountant throws.
Claim claimed(const privacy::DpEvent& event, const config::ExperimentSpec& spec);

/// One-sided Clopper-Pearson upper bound on a binomial rate after k successes in n trials at
/// confidence level c (the beta quantile B^-1(c; k + 1, n - k); 1 when k = n).
double clopper_pearson_upper(long long k, long long n, double c);
/// The lower bound (B^-1(1 - c; k, n - k + 1); 0 when k = 0).
double clopper_pearson_lower(long long k, long long n, double c);
/// The epsilon any (epsilon, delta)-DP mechanism must have for a test with these error rates:
/// max(log((1 - delta - fnr) / fpr), log((1 - delta - fpr) / fnr)), 0 where undefined (Kairouz
/// et al. 2015).
double epsilon_lower_bound(double fpr, double fnr, double delta);

}  // namespace fbosim::audit

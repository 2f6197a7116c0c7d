#pragma once
// A private release that an empirical privacy audit can run (issue 25; `fbosim audit`): the
// release itself on a pair of neighbouring inputs of its own choosing (the worst case it knows
// for the guarantee it claims), each release reduced to a scalar test statistic, and the
// DpEvent it claims for one release. The audit (sim/audit) runs it many times on both inputs,
// thresholds the statistic, and bounds epsilon from below by the test's error rates: any
// (epsilon, delta)-DP mechanism has epsilon >= log((1 - delta - FNR) / FPR) for every test
// (Kairouz, Oh & Viswanath 2015; Jagielski, Ullman & Oprea 2020; Nasr et al. 2021). A lower
// bound above the claim means the mechanism, or its accounting, is wrong; one below it proves
// nothing (a weak pair or statistic only makes the audit weaker, never wrong).
// An algorithm lists its auditable releases (Algorithm::auditable_releases); algorithms/ never
// runs the audit.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/privacy/dp_event.hpp"
#include "core/box.hpp"
#include "core/convex_lipschitz_score.hpp"
#include "core/rng.hpp"

namespace fbosim::protocol {

/// What an algorithm may use to choose its audited releases and their neighbouring inputs.
struct AuditInputs {
  int agents = 1;
  int rounds = 1;
  /// schedule.buffer K where schedule.kind is buffered (its release is charged at q = 1: the
  /// audit runs that release, server::BufferedReleaseAudit); 0 under any other schedule.
  int buffer = 0;
  /// Multiplies the noise of the audited mechanism, never of its claim: < 1 simulates a broken
  /// mechanism, to check that the audit catches it. A release without noise to scale throws
  /// std::invalid_argument when it is not 1.
  double noise_scale = 1;
  /// The domain of agent 0's objective in run 0 (built on first call: it may load data).
  std::function<const core::Domain&()> domain;
  /// What agent 0's objective in run 0 certifies of Kusner et al.'s Assumption 2, if anything
  /// (built on first call, like domain). May be empty: none certified.
  std::function<std::optional<core::ConvexLipschitzScore>()> convex_lipschitz_score;
};

/// One (name, value) line of an audit's report, e.g. {"canary", "agent 3"}.
using AuditDetail = std::pair<std::string, std::string>;

class AuditableRelease {
 public:
  virtual ~AuditableRelease() = default;
  /// What is released, e.g. "the server's release of one round (DP-FTS-DE Algo. 1, lines 5-13)".
  virtual std::string name() const = 0;
  /// The names of the two inputs, the first (D) and its neighbour (D'); they key the audit's
  /// streams ("audit.<name>"(trial)) and name the inputs in the report.
  virtual std::pair<std::string, std::string> inputs() const = 0;
  /// The event the run's ledger charges for one such release (of the intact mechanism).
  virtual privacy::DpEvent event() const = 0;
  /// One release on D (neighbour = false) or D' (true), reduced to the statistic: larger, in
  /// distribution, on D'. Thread-safe (const, nothing shared but the inputs).
  virtual double statistic(bool neighbour, core::RngStream& rng) const = 0;
  /// The release's parameters and neighbouring inputs, for the report.
  virtual std::vector<AuditDetail> details() const = 0;
};

}  // namespace fbosim::protocol

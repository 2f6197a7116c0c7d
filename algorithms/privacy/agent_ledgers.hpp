#pragma once
// Per-agent privacy ledgers: agent n's privacy loss composes the releases it was charged for,
// not the run's. The building block shared by schedules with uneven participation and by trust
// models without a trusted server; which release charges whom is the caller's decision (the
// schedule's eligibility, the trust model's view), the ledgers only count and compose.
//
// Neighbouring data sets differ in one agent's data (DP-FTS-DE Sec. 2, user-level DP): agent
// n's guarantee is the composition of the events of the releases its data could enter, so an
// agent charged for fewer releases has a smaller epsilon. A ledger keeps one count per distinct
// event ("kind", a DpEvent compared by value), so many agents charged by many releases of a few
// kinds hold a few counts each, and epsilon is computed once per distinct vector of counts:
// agents charged alike share one composition (dp_accounting composes a SelfComposedDpEvent the
// same way, by count).
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::privacy {

class AgentLedgers {
 public:
  /// `agents` empty ledgers; throws std::invalid_argument unless agents >= 1.
  explicit AgentLedgers(int agents);

  int agents() const { return agents_; }
  /// Charges `count` copies of `event` to agent n (NoOp charges nothing). Throws
  /// std::out_of_range for n outside [0, agents) and std::invalid_argument for count < 0.
  void charge(int agent, const DpEvent& event, long long count = 1);
  /// Charges every agent: a release in which all are eligible (a central round).
  void charge_all(const DpEvent& event, long long count = 1);

  /// The distinct events charged so far, in the order first charged.
  const std::vector<DpEvent>& kinds() const { return kinds_; }
  /// Agent n's count of each kind, indexed as kinds().
  std::vector<long long> counts(int agent) const;
  /// The number of distinct count vectors: how many compositions epsilons() makes.
  int distinct() const;

  /// Every agent's epsilon at `delta`: one fresh accountant from `make` per distinct count
  /// vector, composing the kinds in kinds() order. Throws what Accountant::compose and epsilon
  /// throw (an unsupported kind names it; a NonPrivate charge: std::domain_error), and
  /// std::runtime_error when an epsilon is not finite: never a silent infinity.
  std::vector<double> epsilons(const std::function<std::unique_ptr<Accountant>()>& make,
                               double delta) const;
  /// Agent n's epsilon at `delta` were `extra` charged to it next (each once, in order): what
  /// epsilons() would give it after those charges, composed in the same order bit for bit (a
  /// kind not yet charged comes after the existing ones), without copying the ledgers. For a
  /// stop rule's look-ahead. Throws what epsilons() throws.
  double epsilon_with(int agent, const std::vector<DpEvent>& extra,
                      const std::function<std::unique_ptr<Accountant>()>& make, double delta) const;

 private:
  int kind_index(const DpEvent& event);
  /// The epsilon of one vector of counts over `kinds` (zero counts skipped), composed in order.
  static double compose(const std::vector<DpEvent>& kinds, const std::vector<long long>& counts,
                        const std::function<std::unique_ptr<Accountant>()>& make, double delta,
                        int agent);
  void check_count(long long count) const;

  int agents_;
  std::vector<DpEvent> kinds_;
  std::vector<long long> all_;  ///< per kind: charges made to every agent
  /// Per agent: (kind, count) of its own charges, sorted by kind.
  std::vector<std::vector<std::pair<int, long long>>> own_;
};

/// What a run reports of its agents' epsilons: the maximum (the run's `epsilon`: every agent's
/// guarantee holds at it), the median and the 90th percentile, both nearest-rank (the smallest
/// epsilon that at least half, resp. 90 %, of the agents are at or below: never interpolated
/// below a value some agent reaches).
struct EpsilonSpread {
  double max, median, p90;
};
/// Throws std::invalid_argument for an empty vector.
EpsilonSpread spread(std::vector<double> epsilons);

}  // namespace fbosim::privacy

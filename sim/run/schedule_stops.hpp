#pragma once
// The stop rules and personal privacy under the asynchronous schedules (docs/TIME.md "Stop rules
// and personal budgets"; docs/TRUST.md "Personal privacy"): who each planned release charges
// what, and where the server and each agent stop, decided before anything is evaluated from
// public quantities alone: the time line (SchedulePlan, from the timing streams), the privacy
// plan (the config) and the charges so far (which follow from both), never a message or a
// selection. The run (AsyncEngine), `fbosim privacy` (replay_schedule) and agents_time.csv all
// charge from it, so their ledgers are equal.
//   - Charges: agent n is charged for every release that holds its message (release_charge's
//     rule): the mechanism's event, or with personal rates the subsampled Gaussian at its own
//     q_n (PrivacyPlan::agent_round), either under the schedule's charged_event (buffered: no
//     sampling, q = 1 for everyone).
//   - server.stop_p: the server makes releases 0 .. server_rounds - 1 at most, the release index
//     in place of the round [choice].
//   - server.budget: before each release the largest per-agent epsilon the ledgers would reach
//     with that release's charges (server.accountant at the run's delta, composed as the run
//     composes them) is checked against the budget; from the first release that would exceed
//     it the server releases nothing more (agents carry on with local TS, as `ts`).
//   - personal.budgets: before each release holding agent n's message, its ledger with that
//     release's charge and the events after the last evaluation must stay within its budget;
//     otherwise it stops being eligible for good: its messages are withheld from this and every
//     later release (charged nothing more), and it follows no later broadcast (local TS).
#include <climits>
#include <vector>

#include "algorithms/protocol/algorithm.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/run/agent_privacy.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/schedule_plan.hpp"

namespace fbosim::run {

/// One planned release after the stop rules.
struct ChargedRelease {
  /// false: the server stopped before it (server.budget, server.stop_p): nothing is released,
  /// nobody is charged, the agents get no broadcast.
  bool released = true;
  /// Each distinct event to the agents it charges (those with a message in the release, less
  /// the withheld), agents ascending within a charge; empty when nothing private is released.
  std::vector<ReleaseCharge> charges;
  /// Agents with a message in the plan's release whose personal budget stopped them before it:
  /// their messages are withheld.
  std::vector<int> withheld;
};

struct ScheduleStops {
  std::vector<ChargedRelease> releases;  ///< one per planned release, in order
  /// The server makes releases 0 .. server_releases - 1 and none after.
  int server_releases = 0;
  /// Per agent: the release before which its personal budget stopped it (INT_MAX: never);
  /// empty without personal budgets.
  std::vector<int> stopped_before;

  /// Whether agent n stopped before release j (so it is withheld from j and sees no broadcast
  /// of j or later).
  bool stopped(int agent, int release) const {
    return !stopped_before.empty() && stopped_before[static_cast<std::size_t>(agent)] <= release;
  }
  /// 1 for each agent still eligible after `releases` releases, 0 for a stopped one.
  std::vector<int> eligible(int agents, int releases) const;
};

/// The charges and stops of `schedule`'s releases. Throws std::runtime_error when the events
/// before the first release alone exceed server.budget, std::logic_error for a budget with
/// events after the last evaluation (they could pass it), and what AgentLedgers throws.
/// `streams`: the run's (a trust model's charges follow the server's selection, stream `server`
/// (j): release_charge). Under a trust model other than central no stop rule applies (the
/// config refuses them) and each release charges release_charge's rule.
ScheduleStops schedule_stops(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan,
                             const SchedulePlan& schedule, const core::RngFactory& streams);

/// A run's privacy replayed from its time line alone (no objective evaluated).
struct ScheduleReplay {
  AgentPrivacy ledgers;
  std::vector<int> eligible;  ///< 1 for an agent still eligible at the end (personal budgets)
  int releases = 0;           ///< planned
  int server_releases = 0;    ///< made before a stop rule ended them
};
/// Run `run`'s ledgers from its time line alone: the setup events to every agent, each planned
/// release's charges (schedule_stops), each message sent to its sender (local: sent_charge),
/// the events after the last evaluation to every agent.
ScheduleReplay replay_schedule(const config::ExperimentSpec& spec, int run);

}  // namespace fbosim::run

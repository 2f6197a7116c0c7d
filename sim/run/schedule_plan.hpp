#pragma once
// The time line of a run under an asynchronous schedule (issue 41 sec. 2; docs/TIME.md),
// computed before anything is evaluated, from the timing.* model's own streams alone: when each
// agent proposes and completes each evaluation, when the server releases, and which message of
// which agent each release holds. Never a function of data (queries, observations, messages),
// so `fbosim privacy` can replay it and the privacy charges follow from it.
//   deadline  releases at D, 2D, ... (D = schedule.deadline); an agent that completes waits for
//             the next release instant (at once if it completes exactly at one) to propose its
//             next query with that release's broadcast; a message completed in ((j-1)D, jD]
//             is in release j-1 (a late message is not dropped: it joins the next release)
//   periodic  releases at P, 2P, ... (P = schedule.period); agents evaluate back to back
//   buffered  a release at the instant the K-th agent with a new message completes
//             (K = schedule.buffer); agents evaluate back to back
//   latest    releases at P, 2P, ... as periodic, each holding every agent's newest message,
//             released or not: a message is in every release until a newer one replaces it
// Releases continue while messages are new (periodic, deadline, latest: every instant up to the
// first one at or after the last message, empty ones included: an instant passes whoever
// sent; buffered: messages left below K at the end are never released), or, with
// schedule.releases = R, exactly R (the instants P, ..., RP; later messages never released). A release holds at most one
// message per agent, its newest: an older pending one is discarded, and (but under latest) each
// message is in at most one release. At one instant, the completions come first (agent order), then
// the releases, then the proposals: an agent that completes at a release's instant proposes with
// that release's broadcast (with constant durations this is the papers' synchronous round: issue 41
// sec. 4's degenerate case).
// The network (network.latency.*, network.dropout; MessageArrivals): a message leaves at its
// completion and arrives after its latency (seconds of the clock, stream network.latency (agent,
// evaluation)), or is lost (stream network.dropout (agent, evaluation)); everything above that
// says "completes" of a message then reads "arrives": the release it joins is the first fixed
// instant at or after its arrival, and under buffered its arrival counts towards K. A lost
// message is in no release (under latest the agent's previous newest message stays); one that
// arrives after a newer message of its agent is discarded. The agents never wait for the
// network: they propose at their completions as without it.
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "sim/config/experiment_spec.hpp"
#include "sim/timeline/completion.hpp"

namespace fbosim::run {

/// One evaluation of one agent on the time line.
struct PlannedEvaluation {
  timeline::Tick propose = 0;   ///< when the agent chooses its query (evaluation 0: 0)
  timeline::Tick complete = 0;  ///< when it observes the result and reports
  int broadcast = 0;  ///< releases at or before `propose`: it proposes with the last of them
};

/// One release of the server.
struct PlannedRelease {
  timeline::Tick time = 0;
  /// (agent, evaluation) of the messages it holds, in agent order: the message the agent
  /// reported after that evaluation.
  std::vector<std::pair<int, int>> messages;
  /// ages[i]: the age of messages[i], the releases since it arrived (0: this is the first
  /// release after its arrival; an arrival at a release's instant is before it; without
  /// latencies the arrival is the completion). Above 0 only under latest.
  std::vector<int> ages;
};

struct SchedulePlan {
  /// [agent][evaluation]: evaluations 0 .. rounds, fewer for an agent whose availability ends.
  std::vector<std::vector<PlannedEvaluation>> evaluations;
  /// Every completion in the time line's order: time, then agent index.
  std::vector<timeline::Completion> order;
  std::vector<PlannedRelease> releases;
};

/// One step of an agent with several evaluations in flight (schedule.workers): propose
/// evaluation k (and evaluate it), or observe its result at its completion.
struct AgentStep {
  timeline::Tick time = 0;
  bool propose = false;
  std::size_t evaluation = 0;
  bool operator==(const AgentStep&) const = default;
};
/// An agent's steps in time order, a completion before a proposal at the same instant (then by
/// evaluation): each query is proposed given the evaluations completed by then only, the
/// pending ones unseen (Kandasamy et al., AISTATS 2018).
std::vector<AgentStep> agent_steps(const std::vector<PlannedEvaluation>& evaluations);

/// The most releases a run may plan (a period far below the durations would otherwise plan
/// millions of empty releases).
inline constexpr std::size_t kMaxReleases = 1'000'000;

/// The plan of `spec` (schedule.kind other than rounds) with the run's streams. `reports`:
/// whether agents report after evaluations 0 .. rounds - 1 (a server collects). Throws
/// std::invalid_argument naming schedule.period / schedule.deadline past kMaxReleases.
SchedulePlan plan_schedule(const config::ExperimentSpec& spec, const core::RngFactory& streams,
                           bool reports);

}  // namespace fbosim::run

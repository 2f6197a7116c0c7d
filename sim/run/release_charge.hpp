#pragma once
// Who is charged what for one release under an asynchronous schedule (issue 41 sec. 3;
// docs/TIME.md, "Privacy"): the one place the schedules' charges are decided.
// Neighbouring data sets differ in one agent's data while every agent's timing (durations,
// availability, the network's latencies and dropouts) is the same: the time line, and with it
// who is in each release, is public (a lost message is in none, so never charged).
//   - An agent is charged for every release that holds a message of its (it is eligible);
//     a release without its message does not depend on its data.
//   - periodic, deadline: the release instants are fixed in advance and the pool of a release
//     is fixed by the time line alone; the server's Poisson coins stay secret, so each
//     eligible agent is charged the mechanism's subsampled event (amplification holds). These
//     schedules also hide whether an agent took part: a release happens whoever sends.
//   - latest: as periodic, but an agent's newest message is in every release until a newer one
//     replaces it, so an agent is charged the subsampled event for every release in which it has
//     a message, however old: each release is a fresh Poisson coin and fresh noise over a pool
//     fixed by the time line alone, and its analysis holds for any message within the clip
//     bound, so the same message released again is one more such release, composed.
//   - buffered: the release instant is the K-th arrival's, so it depends on who takes part;
//     no amplification is claimed: each agent in the release is charged the mechanism's event
//     without its sampling (q = 1), which bounds the release for any pool.
// Weights never depend on the messages: the aggregator's (DE's softmax over all N agents at
// the release count's temperature), a missing message counting as an unselected agent
// (server::DpMechanism), so z w_max S / g still bounds every agent's contribution.
// The trust models (server.trust, docs/TRUST.md "Under the asynchronous schedules"):
//   - distributed, server sampling: the server knows who is in each secure sum: the selected
//     agents of the pool (its selection, the first draws of stream `server` (j), as the
//     mechanism draws it), each charged the Gaussian at q = 1 of the noise summed, m shares of
//     variance sigma^2 / ((1 - rho) m - c) for the m summed: z_eff =
//     ShareCalibration::effective_z(z, m), under every schedule.
//   - distributed, agent sampling: every pool agent joins the sum (its secret coin says whether
//     with its vector or a zero vector), m = the pool's size; each is charged the subsampled
//     Gaussian (q, z_eff), at q = 1 under buffered (charged_event).
//     Either way a sum that cannot carry its honest noise ((1 - rho) m <= c) is aborted and
//     charges nobody, and an empty sum (m = 0) is the server's own noise, charging nobody.
//   - local: a release charges nobody; each message is charged to its sender when it is sent
//     (sent_charge), once, whether it is released, discarded, never released or released again
//     (latest): the sender privatised it, and the rest is post-processing.
// Durations that depend on data (timing.duration.scale_by: records; docs/TIME.md "Durations that
// depend on data"): the time line, and with it who is in a release and with which message, is
// then a function of the agents' data, so neither the zero-out relation (which fixes an absent
// agent's timing) nor the pool's amplification applies. The config admits them only under the
// trusted server with release instants and a release count fixed in advance (not buffered), and
// every agent is charged for every release, whether its message is in it or not, the event for
// neighbours that replace one agent's data: without sampling (q = 1) and at twice the
// sensitivity (an agent's contribution, present, absent or an older message, lies within the
// clip bound, so two of them differ by at most twice it: replace_one).
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/protocol/algorithm.hpp"
#include "algorithms/protocol/schedule_kind.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "core/rng.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

/// The event each eligible agent of a release of `event` is charged under `kind` (not rounds).
privacy::DpEvent charged_event(protocol::ScheduleKind kind, const privacy::DpEvent& event);

/// One release's charges: `event` to each of `agents`.
struct ReleaseCharge {
  privacy::DpEvent event;
  std::vector<int> agents;
};
/// The charges of a release of `event` that holds messages of `eligible` (agent indices).
ReleaseCharge release_charge(protocol::ScheduleKind kind, const privacy::DpEvent& event,
                             std::vector<int> eligible);

/// What a run's charges follow from, fixed by its config: the schedule, the plan's nominal
/// release event and the trust model (with its mechanism, for the selection and the shares).
struct ChargeRule {
  protocol::ScheduleKind kind = protocol::ScheduleKind::periodic;
  privacy::DpEvent event;  ///< PrivacyPlan::round
  int agents = 0;          ///< N
  server::Trust trust = server::Trust::central;
  std::shared_ptr<const server::DpMechanism> mechanism;  ///< null under central
  /// The durations depend on data (central only): every agent is charged for every release,
  /// the release's event without sampling at replace-one sensitivity (data_dependent_event).
  bool data_dependent = false;
};
/// What a release charges every agent when the durations depend on data: replace_one of
/// `event` without its sampling.
privacy::DpEvent data_dependent_event(const privacy::DpEvent& event);
/// The rule of `spec` (a schedule other than rounds) with `plan` its privacy plan.
ChargeRule charge_rule(const config::ExperimentSpec& spec, const protocol::PrivacyPlan& plan);

/// Release j's charges: `pool` the agents with a message in it by the time line (ascending),
/// `streams` the run's (the server's selection, distributed with server sampling). Under central
/// the same as release_charge(kind, event, pool).
ReleaseCharge release_charge(const ChargeRule& rule, int j, std::vector<int> pool,
                             const core::RngFactory& streams);

/// What the trust model changes in the schedule's charges (`fbosim privacy`'s text under
/// epsilon_notion, which describes the trusted server's); empty under central.
std::string trust_notion(const ChargeRule& rule);

/// What every message sent charges its sender, at its sending: local's own release (the plan's
/// event: Gaussian(z_local), or the coin's replace-one event), NoOp under the other models.
privacy::DpEvent sent_charge(const ChargeRule& rule);

}  // namespace fbosim::run

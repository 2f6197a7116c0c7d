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
#include <vector>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/protocol/schedule_kind.hpp"

namespace fbosim::run {

/// `event` with every sampling step removed (PoissonSampled, FixedSampled -> their inner
/// event, recursively through Composed and SelfComposed): the release at q = 1. The mechanism
/// divides by the sampling fraction g in both the sum and the noise, so the noise multiplier
/// of the inner Gaussian is still the ratio of the noise to one agent's largest contribution.
privacy::DpEvent without_sampling(const privacy::DpEvent& event);

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

}  // namespace fbosim::run

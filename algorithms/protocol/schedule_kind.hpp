#pragma once
// When the server releases (issue 41 sec. 2; docs/TIME.md): `rounds`, the papers' synchronous
// rounds (every agent evaluates once per round, the server waits for all or until
// network.deadline); `deadline`, fixed-length rounds on the simulated time line; `buffered`, a
// release after K new messages (FedBuff, Nguyen et al. 2022); `periodic`, a release every fixed
// interval; `latest`, a release every fixed interval of every agent's newest message, released
// again until a newer one replaces it (every agent with a message is eligible in every release:
// DP-FTS-DE's open problem of uneven networks, Dai, Low & Jaillet 2021, sec. 7). Each algorithm
// declares the schedules it supports (AlgorithmTraits::schedules).
#include "schema/enum_names.hpp"

namespace fbosim::protocol {

enum class ScheduleKind { rounds, deadline, buffered, periodic, latest };
inline constexpr schema::EnumNames<ScheduleKind> kScheduleKindNames{
    {ScheduleKind::rounds, "rounds"},
    {ScheduleKind::deadline, "deadline"},
    {ScheduleKind::buffered, "buffered"},
    {ScheduleKind::periodic, "periodic"},
    {ScheduleKind::latest, "latest"}};

/// What a run's epsilon protects under `kind` (provenance.yaml's `epsilon_notion`;
/// sim/run/release_charge.hpp charges accordingly; docs/TIME.md, "Privacy").
inline const char* epsilon_notion(ScheduleKind kind) {
  switch (kind) {
    case ScheduleKind::periodic:
    case ScheduleKind::deadline:
      return "participation hidden: neighbours differ in one agent's data or in whether it takes "
             "part; release times fixed in advance; each agent charged for the releases holding "
             "its messages, with the server's subsampling";
    case ScheduleKind::latest:
      return "participation hidden: neighbours differ in one agent's data or in whether it takes "
             "part; release times fixed in advance; each agent charged for every release holding "
             "its newest message (a message may be in several), with the server's subsampling";
    case ScheduleKind::buffered:
      return "timing public: neighbours differ in one agent's data, every agent's timing the "
             "same; release times depend on who takes part, so each agent is charged for the "
             "releases holding its messages without subsampling (q = 1)";
    case ScheduleKind::rounds:
      break;
  }
  return "the papers': neighbours differ in one agent's data; every agent charged for every "
         "round";
}

}  // namespace fbosim::protocol

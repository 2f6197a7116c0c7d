#pragma once
// The weight of a message by its age under `schedule.kind: latest` (docs/TIME.md, "Age
// weights"): the age a of a message is the number of releases since it was made (0 in the first
// release after its completion), a function of the time line alone, so a weight is fixed before
// a release's messages are seen. On top of the aggregator's weights W(i, n); under DP never
// renormalised over the messages present (server::DpMechanism::release_scaled), so the noise
// z w_max S / g of the unscaled W still bounds every contribution W(i, n) age_weight(a) S.
//   one       1
//   fedbuff   1 / sqrt(1 + a)          FedBuff's staleness scaling (Nguyen et al., AISTATS 2022)
//   fedasync  (1 + a)^-alpha           FedAsync's polynomial staleness function (Xie, Koyejo &
//                                      Gupta 2019), alpha = schedule.age_exponent
// Both are heuristics borrowed from gradient methods, where a stale update points the wrong way;
// an FTS message is a sample of its agent's own posterior, which no broadcast went into: an old
// one is only less informed. Computed with correctly rounded IEEE operations,
// timeline::portable_log and core::fast_exp, so every x86-64 CPU gives the same bits.
#include "sim/config/experiment_spec.hpp"

namespace fbosim::run {

/// The weight in (0, 1] of a message of age `age` >= 0 (std::invalid_argument for a negative
/// age or an exponent outside (0, 10]).
double age_weight(config::AgeWeight kind, double exponent, int age);

}  // namespace fbosim::run

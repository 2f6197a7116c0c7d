#pragma once
// The neighbouring relation of an event (sim/run/release_charge.hpp charges with these). The
// accountants analyse an event for neighbours that add or remove one record (one agent's data;
// zero-out, Kairouz, Liu & Steinke, ICML 2021); where a release's sampling cannot be claimed or
// the neighbours replace one agent's data instead, the event is rewritten here, never the
// accountants.
#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::privacy {

/// `event` with every sampling step removed (PoissonSampled, FixedSampled -> their inner
/// event, recursively through Composed and SelfComposed): the release at q = 1. The mechanism
/// divides by the sampling fraction g in both the sum and the noise, so the noise multiplier
/// of the inner Gaussian is still the ratio of the noise to one agent's largest contribution.
DpEvent without_sampling(const DpEvent& event);

/// `event` for neighbours that replace one agent's data, where `event` is for neighbours that add
/// or remove it (zero-out): group privacy of two, exact for the noise mechanisms by doubling the
/// sensitivity (Gaussian noise multiplier z -> z / 2, Laplace scale b -> b / 2), through
/// compositions and private selection. std::invalid_argument for a sampled event (remove the
/// sampling first: without_sampling) or an (epsilon, delta) event.
DpEvent replace_one(const DpEvent& event);

}  // namespace fbosim::privacy

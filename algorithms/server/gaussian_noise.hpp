#pragma once
// The Gaussian step of DP-FTS-DE's server (Dai, Low, Jaillet 2021, Algo. 1 line 11) and the one
// place where a Release gets its DpEvent: the event is attached only after noise of a finite,
// positive standard deviation was added to every coordinate of every sub-region's vector. A
// zero or non-finite std (e.g. DE weights that over- or underflowed to 0 or NaN) is a logic
// error, never a release with epsilon reported for noise that was not drawn.
#include <vector>

#include "algorithms/server/weighted_release.hpp"
#include "core/rng.hpp"

namespace fbosim::server {

/// Adds N(0, stds[i]^2) to every coordinate of out.omegas[i], sets
/// out.stats.noise_std = max_i stds[i] and then out.event = event. Throws std::logic_error, with
/// out.event left empty, if the sizes disagree, a vector is empty, a std is not finite and > 0,
/// or the noisy broadcast is not finite (the event's z > 0 holds by construction).
void add_gaussian_noise(WeightedRelease& out, const std::vector<double>& stds,
                        const privacy::DpEvent& event, core::RngStream& rng);

}  // namespace fbosim::server

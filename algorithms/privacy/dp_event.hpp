#pragma once
// What one round of the server released, as data (house rule 4, after google/dp_accounting's
// DpEvent): the accountant composes these; nobody computes epsilon inline.
#include <string>

namespace fbosim::privacy {

enum class Sampling { poisson, fixed };

/// A subsampled Gaussian release: each agent's contribution is clipped (sensitivity 1 after
/// scaling), noise N(0, (z * sensitivity)^2) is added, and agents are sampled with rate q.
/// A round that releases nothing is simply not composed.
struct DpEvent {
  double sampling_rate = 1.0;     ///< q in (0, 1]
  double noise_multiplier = 1.0;  ///< z > 0
  Sampling sampling = Sampling::poisson;
  int population = 0;  ///< N, needed for fixed-size sampling (batch = floor(N q))
};

std::string to_string(Sampling s);
/// Parses "poisson" or "fixed"; throws std::invalid_argument naming the bad value otherwise.
Sampling parse_sampling(const std::string& s);

}  // namespace fbosim::privacy

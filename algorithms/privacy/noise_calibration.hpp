#pragma once
// Noise calibration: the smallest noise multiplier z whose T-fold composition stays within a
// target epsilon (what `fbosim privacy --target-epsilon` prints). Epsilon decreases in z for
// every accountant here, so a bracketing root search (Brent-Dekker in log z, started from
// rdp's answer for pld) is exact up to its tolerance; the answer is rounded
// UP (the returned z always reaches the target).
#include <functional>
#include <string>

#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::privacy {

struct Calibration {
  double noise_multiplier;  ///< the calibrated z
  double epsilon;           ///< the epsilon it reaches (<= target)
};

/// event_of(z): one step's event at noise multiplier z (e.g. sampled_gaussian); steps >= 1.
/// Throws std::invalid_argument for a target <= 0 or one no z in [1e-3, 1e4] reaches.
/// rel_tol: the bracket [z_lo, z_hi] is narrowed until z_hi / z_lo - 1 <= rel_tol.
Calibration calibrate_noise(const std::string& accountant,
                            const std::function<DpEvent(double z)>& event_of, int steps,
                            double delta, double target_epsilon, double rel_tol = 1e-6);

}  // namespace fbosim::privacy

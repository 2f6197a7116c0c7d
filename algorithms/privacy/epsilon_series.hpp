#pragma once
// epsilon after many different numbers of repetitions of one event, in one pass: the counts are
// sorted and composed incrementally into one accountant (T_1 steps, then T_2 - T_1 more, ...),
// so a curve of 1000 step counts costs one composition per count instead of a fresh accountant
// each. Composition is additive in every accountant here, so the values equal those of
// composing each count afresh (up to the rounding of sums of RDP terms, ~1e-15 relative).
// Used by `fbosim privacy --steps LIST` and the Python module's privacy.epsilon.
#include <string>
#include <vector>

#include "algorithms/privacy/accountant.hpp"

namespace fbosim::privacy {

/// epsilon (and its order) at `delta` after steps[k] repetitions of `event`, for every k, in the
/// order given (duplicates and any order allowed; 0 steps gives epsilon 0). Throws
/// std::invalid_argument for an unknown accountant, an unsupported event or a negative count,
/// std::domain_error where the accountant cannot answer (never 0 or inf for a private event).
std::vector<EpsilonResult> epsilon_series(const std::string& accountant, const DpEvent& event,
                                          const std::vector<int>& steps, double delta);

/// "60", "10,20,40", "1:1000" (every count from 1 to 1000), "1:1000:10" (every 10th), or a
/// comma-separated mix ("1:58:3,60"): the step counts of a --steps option. Throws
/// std::invalid_argument naming the text otherwise (negative counts, a zero or negative stride,
/// more than 10^6 counts).
std::vector<int> parse_steps(const std::string& text);

}  // namespace fbosim::privacy

#pragma once
// Private hyperparameter selection by repeated random search (Papernot & Steinke 2022,
// "Hyperparameter Tuning with Renyi Differential Privacy", ICLR; beyond Kusner et al.: issue
// #12's second release mechanism). The base algorithm Q draws a candidate uniformly at random
// (independently of the data) and releases it with its validation score plus Laplace noise of
// scale sensitivity / epsilon_0 (epsilon_0-DP for a score of that sensitivity); A runs Q K times,
// K random (privacy::RepetitionDistribution), and releases only the run with the best noisy
// score. Its privacy: DpEvent RepeatAndSelect(Laplace(1 / epsilon_0), mean, shape), accounted
// with RDP (their Thms. 2 and 6) or, for a truncated negative binomial, as pure
// ((2 + eta) epsilon_0)-DP (the basic accountant).
#include <functional>
#include <string>

#include <Eigen/Core>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/privacy/repetition.hpp"
#include "core/rng.hpp"

namespace fbosim::release {

struct PrivateSelectionOptions {
  double mean = 10;         ///< E[K]
  double shape = 1;         ///< eta of the truncated negative binomial; +inf: Poisson
  double sensitivity = 1;   ///< of the validation score under the neighbour relation
  double base_epsilon = 1;  ///< epsilon_0 of one run of Q
};

struct PrivateSelection {
  long long repetitions = 0;  ///< K (0: nothing released, Poisson only)
  Eigen::Index best = -1;     ///< the released candidate (-1 when K = 0)
  double noisy_score = 0;     ///< its released noisy score
  double score = 0;           ///< its score without the noise (not released; for reporting)
};

/// The event of one selection with these options.
privacy::DpEvent private_selection_event(const PrivateSelectionOptions& o);
/// The base epsilon_0 whose selection reaches `target_epsilon` at `delta` under `accountant`
/// ("rdp" or "basic"): calibrate_noise over the Laplace scale 1 / epsilon_0, rounded to the
/// private side (the target is never exceeded). Throws std::invalid_argument when unreachable.
double calibrate_base_epsilon(const std::string& accountant, double target_epsilon, double delta,
                              double mean, double shape);

/// Runs A over `candidates` (n of them): K from rng, then per repetition one uniform index and
/// score(index, rng) + Laplace(sensitivity / epsilon_0), all from rng; ties keep the earlier run.
PrivateSelection private_selection(
    Eigen::Index candidates, const PrivateSelectionOptions& o,
    const std::function<double(Eigen::Index, core::RngStream&)>& score, core::RngStream& rng);

}  // namespace fbosim::release

#pragma once
// Which maximiser an acquisition over a box uses (`acquisition.method`): the random points +
// L-BFGS-B recipe of DP-FTS-DE App. B.2.6 and the FTS authors' later code (BoxMaximiser,
// ScoreMaximiser), or DIRECT (DirectMaximiser), with which the FTS authors' released landmine
// results were made (their commit 9f46a1d: USE_DIRECT_OPTIMIZER = True). One place decides, so
// every caller (the own TS step, a peer's sample, RGPE and TAF, DP-FTS-DE's server step) follows
// the same key.
#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/acquisition/direct_maximiser.hpp"
#include "algorithms/acquisition/score_maximiser.hpp"
#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::acq {

enum class Method { random_lbfgsb, direct };
inline constexpr schema::EnumNames<Method> kMethodNames{{Method::random_lbfgsb, "random_lbfgsb"},
                                                        {Method::direct, "direct"}};

struct AcquisitionMethod {
  Method method = Method::random_lbfgsb;  ///< acquisition.method
  DirectMaximiser::Options direct;        ///< acquisition.direct.* (method: direct)
};

/// acquisition.method and, with `direct`, acquisition.direct.algorithm, .max_evaluations, .eps
/// (their defaults: the FTS authors' settings).
const schema::Group<AcquisitionMethod>& acquisition_method_keys();

/// argmax over `box` of phi(x) . omega by the chosen method: `random` (drawing from rng) or
/// DIRECT (no draws).
Candidate maximise_sample(const AcquisitionMethod& how, const BoxMaximiser& random,
                          const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                          const core::Box& box, core::RngStream& rng);
/// argmax over `box` of a score by the chosen method: `random` (drawing from rng) or DIRECT (no
/// draws).
ScoreMaximiser::Result maximise_score(const AcquisitionMethod& how, const ScoreMaximiser& random,
                                      const ScoreMaximiser::Score& score, const core::Box& box,
                                      core::RngStream& rng);

}  // namespace fbosim::acq

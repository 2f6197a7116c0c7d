#pragma once
// Maximises a score over a box with DIRECT (DIviding RECTangles: Jones, Perttunen & Stuckman
// 1993; the locally biased DIRECT-L: Gablonsky & Kelley 2001) through NLopt. DIRECT samples the
// centres of ever smaller thirds of the box and is deterministic: it draws nothing, and the same
// score gives the same point bit for bit (the score is called on the calling thread, in one
// order). The FTS authors' released code (github.com/daizhongxiang/Federated_Bayesian_Optimization,
// commit 9f46a1d: federated_helper_funcs.py's acq_max with USE_DIRECT_OPTIMIZER = True, through
// requirements/scipydirect_customized.py) maximised every acquisition this way, with
// Gablonsky's Fortran DIRECT 2.0.4 and eps 1e-4, maxf 20000, maxT 6000, original DIRECT: the
// defaults below. NLopt's `orig_direct` is the C translation of that same Fortran code; how each
// of the authors' settings maps onto NLopt's is in docs/USER_GUIDE.md ("DIRECT").
#include <Eigen/Core>

#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/acquisition/score_maximiser.hpp"
#include "algorithms/rff/random_features.hpp"
#include "core/box.hpp"
#include "schema/enum_names.hpp"

namespace fbosim::acq {

/// NLopt's DIRECT algorithms: Gablonsky's Fortran code translated to C (`orig_direct`:
/// NLOPT_GN_ORIG_DIRECT, Jones' original selection; `orig_direct_l`: NLOPT_GN_ORIG_DIRECT_L,
/// Gablonsky's locally biased one), or Steven G. Johnson's re-implementation (`direct`:
/// NLOPT_GN_DIRECT; `direct_l`: NLOPT_GN_DIRECT_L).
enum class DirectAlgorithm { orig_direct, orig_direct_l, direct, direct_l };
inline constexpr schema::EnumNames<DirectAlgorithm> kDirectAlgorithmNames{
    {DirectAlgorithm::orig_direct, "orig_direct"},
    {DirectAlgorithm::orig_direct_l, "orig_direct_l"},
    {DirectAlgorithm::direct, "direct"},
    {DirectAlgorithm::direct_l, "direct_l"}};

class DirectMaximiser {
 public:
  struct Options {
    DirectAlgorithm algorithm = DirectAlgorithm::orig_direct;
    /// NLopt's maxeval, DIRECT's maxf. The `orig_*` algorithms finish the iteration that passes
    /// it (as the Fortran code), so a call makes a few more evaluations than this.
    int max_evaluations = 20000;
    /// Jones' epsilon (NLopt's "magic_eps"): a rectangle is potentially optimal only if it can
    /// improve on the best value by eps |best value|.
    double eps = 1e-4;
  };
  struct Result {
    Eigen::VectorXd x;  ///< the best point evaluated (d-vector, inside the box)
    double value;       ///< its score
    int evaluations;    ///< the score's evaluations
  };

  DirectMaximiser() = default;
  explicit DirectMaximiser(Options options);

  /// argmax over `box` of score.value (its gradient and batch are not used). Throws
  /// std::invalid_argument for an inverted or empty box or a score without value(), and
  /// std::runtime_error when NLopt fails or no evaluated point had a finite score (DIRECT treats
  /// a NaN or infinite score as a point outside a hidden constraint). An exception thrown by the
  /// score (e.g. core::Cancelled) stops NLopt and is rethrown.
  Result maximise(const ScoreMaximiser::Score& score, const core::Box& box) const;
  /// argmax over `box` of g(x) = phi(x) . omega.
  Candidate maximise(const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                     const core::Box& box) const;

  const Options& options() const { return options_; }

 private:
  Options options_;
};

}  // namespace fbosim::acq

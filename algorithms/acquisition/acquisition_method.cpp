#include "algorithms/acquisition/acquisition_method.hpp"

#include <utility>

#include "schema/group.hpp"

namespace fbosim::acq {

const schema::Group<AcquisitionMethod>& acquisition_method_keys() {
  using A = AcquisitionMethod;
  using D = DirectMaximiser::Options;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<A>{}
          .choice("acquisition.method", &A::method, kMethodNames,
                  "continuous domains: how an acquisition (the own Thompson sample, a peer's "
                  "sample, RGPE, TAF, DP-FTS-DE's server step) is maximised: `random_lbfgsb` "
                  "(`acquisition.random_points` uniform points, then L-BFGS-B from "
                  "`acquisition.starts` random starts: DP-FTS-DE App. B.2.6 and the FTS "
                  "authors' later code) or `direct` (DIRECT through NLopt, deterministic, no "
                  "draws: the FTS authors' code of their released landmine results, commit "
                  "9f46a1d); finite domains are scanned whatever it says [code]")
          .choice("acquisition.direct.algorithm", at(&A::direct, &D::algorithm),
                  kDirectAlgorithmNames,
                  "`direct`: NLopt's algorithm: `orig_direct` (Gablonsky's Fortran DIRECT 2.0.4 "
                  "in C, Jones' original selection: the FTS authors' algmethod 0), "
                  "`orig_direct_l` (the same code, Gablonsky's locally biased DIRECT-L), "
                  "`direct`, `direct_l` (NLopt's own re-implementations)")
          .when([](const A& a) { return a.method == Method::direct; })
          .integer("acquisition.direct.max_evaluations", at(&A::direct, &D::max_evaluations),
                   Range::closed(1, 1000000),
                   "`direct`: the evaluation budget (NLopt's maxeval, the authors' maxf 20000); "
                   "the `orig_*` algorithms finish the iteration that passes it")
          .when([](const A& a) { return a.method == Method::direct; })
          .real("acquisition.direct.eps", at(&A::direct, &D::eps), Range::closed(0, 1),
                "`direct`: Jones' epsilon (NLopt's magic_eps, the authors' eps 1e-4)")
          .when([](const A& a) { return a.method == Method::direct; });
  return g;
}

Candidate maximise_sample(const AcquisitionMethod& how, const BoxMaximiser& random,
                          const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                          const core::Box& box, core::RngStream& rng) {
  if (how.method == Method::direct)
    return DirectMaximiser(how.direct).maximise(features, omega, box);
  return random.maximise(features, omega, box, rng);
}

ScoreMaximiser::Result maximise_score(const AcquisitionMethod& how, const ScoreMaximiser& random,
                                      const ScoreMaximiser::Score& score, const core::Box& box,
                                      core::RngStream& rng) {
  if (how.method == Method::direct) {
    DirectMaximiser::Result r = DirectMaximiser(how.direct).maximise(score, box);
    return {std::move(r.x), r.value};
  }
  return random.maximise(score, box, rng);
}

}  // namespace fbosim::acq

// The DP release of BO results (dp_bo): keys and registry entry.
#include <cmath>
#include <limits>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/privacy/basic_accountant.hpp"
#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/systems/dp_bo_system.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::systems {

namespace {

/// release.repetitions.distribution: the law of Papernot & Steinke's K, kept in
/// PrivateSelectionOptions::shape (eta of the truncated negative binomial; +inf: Poisson).
enum class RepetitionLaw { truncated_negative_binomial, poisson };
constexpr schema::EnumNames<RepetitionLaw> kRepetitionLawNames{
    {RepetitionLaw::truncated_negative_binomial, "truncated_negative_binomial"},
    {RepetitionLaw::poisson, "poisson"}};
/// release.gamma_bound.
constexpr schema::EnumNames<bool> kGreedyNames{{true, "greedy"}, {false, "trivial"}};

schema::Lens<DpBoConfig, RepetitionLaw> repetition_law() {
  return {[](const DpBoConfig& c) {
            return std::isinf(c.selection.shape) ? RepetitionLaw::poisson
                                                 : RepetitionLaw::truncated_negative_binomial;
          },
          [](DpBoConfig& c, const RepetitionLaw& law) {
            if (law == RepetitionLaw::poisson) {
              c.selection.shape = std::numeric_limits<double>::infinity();
            } else if (std::isinf(c.selection.shape)) {
              c.selection.shape = release::PrivateSelectionOptions{}.shape;
            }
          }};
}

bool noise_free(const DpBoConfig& c) { return c.observations == Observations::noise_free; }

}  // namespace

const schema::Group<DpBoConfig>& dp_bo_keys() {
  using C = DpBoConfig;
  using release::PrivateSelectionOptions;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<C>{}
          .integer("candidates.per_axis", &C::per_axis, Range::closed(2, 1000),
                   "the finite candidate set Lambda on a box domain: this many points per axis, "
                   "corners included (grid families: the grid itself)")
          .choice("release.mechanism", &C::mechanism, kReleaseMechanismNames,
                  "`kusner`: Kusner et al. 2015 (exponential mechanism over mu_T, Laplace on the "
                  "best value); `papernot_steinke`: private selection by random search repeated "
                  "K times (ICLR 2022); `kusner_lipschitz`: Kusner et al.'s Algorithm 3 (the "
                  "best value only, Laplace with Thm. 7's sensitivity; needs an objective that "
                  "certifies their Assumption 2, e.g. `landmine_logistic`)")
          .choice("release.observations", &C::observations, kObservationsNames,
                  "the GP's observations: `noisy` (Kusner et al. Thms. 1, 3) or `noise_free` "
                  "(Thm. 5; needs `gp.noise_var: 0`)")
          .then([](C& c) {
            if (noise_free(c)) c.ucb.hyper.noise_var = 0;  // gp.noise_var's default then
          })
          .boolean("release.hyperparameter", &C::hyperparameter, "release the best hyperparameter")
          .boolean("release.value", &C::value, "release the best validation score")
          .check([](const C& c, schema::Problems& p) {
            if (!c.hyperparameter && !c.value)
              p.push_back({"release.value",
                           "release.hyperparameter and release.value are both false: nothing to "
                           "release"});
            if (c.mechanism == ReleaseMechanism::kusner_lipschitz && c.hyperparameter)
              p.push_back({"release.hyperparameter",
                           "must be false with release.mechanism: kusner_lipschitz (Kusner et "
                           "al.'s Algorithm 3 releases the best validation score only)"});
          })
          .real("release.epsilon", &C::epsilon, Range::above(0),
                "`kusner`: epsilon of each release; `papernot_steinke`: the total epsilon at "
                "`release.delta`")
          .real("release.delta", &C::delta, Range::open(0, 1),
                "`kusner`: the probability that the GP-based sensitivity bound fails "
                "(Corollaries 1-3); `papernot_steinke`: delta of the RDP conversion; "
                "`kusner_lipschitz`: none is spent (pure epsilon-DP), it is only the default "
                "server.delta at which the run's ledger states its epsilon")
          .real("release.neighbour_kernel", &C::neighbour_kernel, Range::closed(0, 1),
                "k_V(V, V') of neighbouring validation sets [reconstructed: the paper gives no "
                "set kernel]")
          .choice("release.gamma_bound", &C::greedy_gamma, kGreedyNames,
                  "the information-gain bound gamma_T in c' (Thm. 3): `greedy` (the greedy bound "
                  "on the candidates) or `trivial`")
          // Every mechanism's keys are read in either mode, so one config holds both curves.
          .real("release.de_freitas.a", &C::de_freitas_a, Range::at_least(0),
                "de Freitas et al.'s constant A, needed by the noise-free value release (Thm. 5)")
          .note("none")
          .real("release.de_freitas.tau", &C::de_freitas_tau, Range::above(0),
                "de Freitas et al.'s constant tau (Thm. 5)")
          .note("none")
          .check([](const C& c, schema::Problems& p) {
            if (c.mechanism != ReleaseMechanism::kusner || !noise_free(c) || !c.value) return;
            if (!c.de_freitas_a)
              p.push_back({"release.de_freitas.a",
                           "the noise-free value release needs de Freitas et al.'s constant A "
                           "(its sensitivity, Thm. 5, cannot be computed from data); give it or "
                           "set release.value: false"});
            if (!c.de_freitas_tau)
              p.push_back({"release.de_freitas.tau",
                           "the noise-free value release needs de Freitas et al.'s constant tau"});
          })
          .choice("release.repetitions.distribution", repetition_law(), kRepetitionLawNames,
                  "`papernot_steinke`: the law of the number of repetitions K")
          .real("release.repetitions.mean", at(&C::selection, &PrivateSelectionOptions::mean),
                Range::closed(1, 1000000),
                "`papernot_steinke`: E[K] (> 1 for the truncated negative binomial)")
          .check([](const C& c, schema::Problems& p) {
            if (!std::isinf(c.selection.shape) && !(c.selection.mean > 1))
              p.push_back({"release.repetitions.mean", "must be in (1, 1e6]"});
          })
          .real("release.repetitions.shape", at(&C::selection, &PrivateSelectionOptions::shape),
                Range::closed(0, 1000),
                "`papernot_steinke`: eta of the truncated negative binomial (0: logarithmic, 1: "
                "geometric)")
          .when([](const C& c) { return !std::isinf(c.selection.shape); })
          .real("release.score_sensitivity",
                at(&C::selection, &PrivateSelectionOptions::sensitivity), Range::above(0),
                "`papernot_steinke`: the validation score's sensitivity between neighbouring "
                "datasets")
          .include(agents::init_points_keys(), at(&C::ucb, &agents::GpUcbOptions::init_points))
          // The kernel is normalised (k(x, x) = 1, Kusner et al.): no gp.signal_var.
          .include(gp::se_hyper_keys().without({"gp.signal_var"}),
                   at(&C::ucb, &agents::GpUcbOptions::hyper))
          // Kusner et al.'s bounds hold for f ~ GP(m0, k) as for GP(0, k): the confidence bounds
          // are those of f - m0, and m0 cancels in f_V - f_V'.
          .include(agents::prior_mean_keys(), at(&C::ucb, &agents::GpUcbOptions::prior_mean))
          .check([](const C& c, schema::Problems& p) {
            if (noise_free(c) && c.ucb.hyper.noise_var != 0)
              p.push_back({"gp.noise_var",
                           "must be 0 with release.observations: noise_free (the model then has "
                           "a jitter only)"});
            if (!noise_free(c) && !(c.ucb.hyper.noise_var > 0))
              p.push_back({"gp.noise_var",
                           "must be > 0 with noisy observations (release.observations: "
                           "noise_free for 0)"});
          });
  return g;
}

void register_dp_bo_algorithm(schema::Registry<protocol::AlgorithmEntry>& registry) {
  DpBoConfig defaults;
  defaults.ucb.exclude_queried = false;  // plain GP-UCB over Lambda (Kusner et al. Alg. 1)
  protocol::AlgorithmEntry e = protocol::make_algorithm_entry<DpBoConfig>(
      "dp_bo",
      "GP-UCB on a finite candidate set, then a DP release of the best hyperparameter and score "
      "(Kusner et al. 2015; Papernot & Steinke 2022)",
      dp_bo_keys(), defaults, nullptr,
      [](DpBoConfig c,
         const protocol::ExperimentFacts& facts) -> std::shared_ptr<const protocol::Algorithm> {
        if (c.mechanism == ReleaseMechanism::kusner_lipschitz && !facts.convex_lipschitz_score)
          throw schema::ProblemError(
              {"release.mechanism",
               "kusner_lipschitz (Kusner et al.'s Algorithm 3) needs an objective whose "
               "validation score satisfies their Assumption 2 (objective.family: "
               "landmine_logistic); objective.family " +
                   facts.family + " certifies none"});
        try {
          return std::make_shared<DpBoSystem>(c);
        } catch (const std::invalid_argument& e) {
          throw schema::ProblemError(
              {c.mechanism == ReleaseMechanism::papernot_steinke ? "release.epsilon" : "release",
               e.what()});
        }
      });
  e.experiment_presets = {{"server.accountant", std::string("basic")}};
  // Kusner's releases are (epsilon, delta) events: basic composition at the sum of their
  // deltas; Papernot & Steinke's is accounted by RDP at release.delta.
  e.accounting = [](const protocol::Algorithm& a, int agents) {
    const auto& c = dynamic_cast<const DpBoSystem&>(a).config();
    if (c.mechanism == ReleaseMechanism::papernot_steinke)
      return protocol::AccountingDefaults{"rdp", c.delta};
    // Algorithm 3's releases are pure (epsilon, 0) events: basic composition gives the same
    // epsilon at every delta; release.delta is only where the ledger states it.
    if (c.mechanism == ReleaseMechanism::kusner_lipschitz)
      return protocol::AccountingDefaults{std::nullopt, c.delta};
    return protocol::AccountingDefaults{std::nullopt,
                                        privacy::composed_delta(a.possible_events(agents))};
  };
  e.privacy_keys = {"release.epsilon", "release.delta", "release.mechanism", "agents.count"};
  e.traits.schedules_why =
      "it has no server releasing during the run (its release follows the last round) and its "
      "GP-UCB tuners would need pending-point rules for asynchronous proposals";
  registry.add(std::move(e));
}

}  // namespace fbosim::systems

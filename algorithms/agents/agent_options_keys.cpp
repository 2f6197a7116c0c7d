#include "algorithms/agents/agent_options.hpp"
#include "schema/group.hpp"

namespace fbosim::agents {

namespace {
/// agents.init: inside the agent's sub-region, or anywhere in the domain.
constexpr schema::EnumNames<bool> kInitInRegionNames{{true, "region"}, {false, "domain"}};
}  // namespace

const schema::Group<int>& init_points_keys() {
  static const auto g = schema::Group<int>{}.integer(
      "agents.init_points", schema::Lens<int, int>::whole(), schema::Range::closed(1, 100000),
      "N_init, drawn uniformly in round 0");
  return g;
}

const schema::Group<double>& prior_mean_keys() {
  static const auto g = schema::Group<double>{}.real(
      "gp.mean", schema::Lens<double, double>::whole(), schema::Range::any(),
      "constant prior mean m0 of the agent's GP (the papers: 0): the model is f = m0 + g, g a "
      "zero-mean GP on y - m0. TS agents: fits and steps see y - m0; RGPE / TAF's target "
      "predicts m0 + the zero-mean posterior; GP-UCB (`po_gp_ucb`, `gp_ucb`, `dp_bo`): the UCB "
      "and `dp_bo`'s mu_T are m0 + those of y - m0 (the release's sensitivities are unchanged)");
  return g;
}

const schema::Group<AgentOptions>& agent_keys() {
  static const auto g =
      schema::Group<AgentOptions>{}
          .include(init_points_keys(), &AgentOptions::init_points)
          .choice("agents.init", &AgentOptions::init_in_region, kInitInRegionNames,
                  "`region`: inside the agent's sub-region; `domain`: anywhere (Fig. 5 "
                  "ablation). `ts` always initialises on the whole domain (standard TS has no "
                  "sub-regions)");
  return g;
}

}  // namespace fbosim::agents

#include "algorithms/agents/agent_options.hpp"
#include "sim/schema/group.hpp"

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

// PO-GP-UCB and its non-private baseline GP-UCB: keys and registry entries.
#include <fmt/format.h>

#include "algorithms/agents/agent_options.hpp"
#include "algorithms/privacy/basic_accountant.hpp"
#include "algorithms/protocol/algorithm_entry.hpp"
#include "algorithms/systems/po_gp_ucb_system.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::systems {

namespace {

void validate_po_gp_ucb(const PoGpUcbConfig& c, const protocol::ExperimentFacts& f,
                        schema::Problems& out) {
  // A family with a finite domain, known by its traits (a table's points are known only when
  // its file is read: the agents check init_points then).
  if (f.domain == core::DomainKind::box)
    out.push_back({"objective.family",
                   fmt::format("{} needs the curator's finite dataset: a family with a finite "
                               "domain (a grid or a table, e.g. gp_grid2d, gp_grid, "
                               "heterogeneous, branin with objective.branin_grid, table), not "
                               "'{}'",
                               c.name, f.family)});
  else if (f.domain_points > 0 && c.ucb.init_points > f.domain_points)
    out.push_back(
        {"agents.init_points", fmt::format("must be at most the {:g} points of the dataset",
                                           static_cast<double>(f.domain_points))});
}

std::shared_ptr<const protocol::Algorithm> build(PoGpUcbConfig c) {
  const bool authors = c.variant == PoVariant::authors;
  c.curator.lift = authors ? curator::Lift::authors : curator::Lift::paper;
  c.ucb.bonus =
      authors ? agents::GpUcbOptions::Bonus::variance : agents::GpUcbOptions::Bonus::deviation;
  c.ucb.exclude_queried = true;
  return std::make_shared<PoGpUcbSystem>(c);
}

}  // namespace

const schema::Group<PoGpUcbConfig>& po_gp_ucb_keys() {
  using C = PoGpUcbConfig;
  using curator::CuratorOptions;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<C>{}
          .choice("po.variant", &C::variant, kPoVariantNames,
                  "`paper`: Kharkovskii et al.'s text (UCB bonus beta^1/2 sigma, the lift "
                  "sqrt(sigma^2 + omega^2)); `authors`: their released code (bonus beta^1/2 "
                  "sigma^2, lift sigma + omega, `ucb.delta` 0.1, `gp.lengthscale` 0.25 x "
                  "`curator.max_norm`)")
          .real("curator.max_norm", &C::max_norm, Range::above(0),
                "the largest row norm after centring (sec. 4: 25)")
          .then([](C& c) {
            // The authors' code: delta' = 0.1 and l = 0.25 x the maximal norm, unless given.
            if (c.variant != PoVariant::authors) return;
            c.ucb.delta = 0.1;
            c.ucb.hyper.lengthscale = 0.25 * c.max_norm;
          })
          .real("curator.epsilon", at(&C::curator, &CuratorOptions::epsilon), Range::above(0),
                "epsilon of the curator's release of Z (Algorithm 1; e^1.1, Table 1)")
          .real("curator.delta", at(&C::curator, &CuratorOptions::delta), Range::open(0, 1),
                "delta of the curator's release (sec. 4: 1e-5)")
          .integer("curator.r", at(&C::curator, &CuratorOptions::r), Range::closed(1, 100000),
                   "r, the columns of the random projection M")
          .real("ucb.delta", at(&C::ucb, &agents::GpUcbOptions::delta), Range::open(0, 1),
                "delta' of beta_t = 2 log(n t^2 pi^2 / (6 delta')): delta_ucb / 2 with sec. 4's "
                "delta_ucb = 0.05 (Thm. 3); `po.variant: authors`: 0.1")
          .include(agents::init_points_keys(), at(&C::ucb, &agents::GpUcbOptions::init_points))
          .include(gp::se_hyper_keys(), at(&C::ucb, &agents::GpUcbOptions::hyper))
          // On the outputs: the curator's transformation of the inputs leaves it as it is.
          .include(agents::prior_mean_keys(), at(&C::ucb, &agents::GpUcbOptions::prior_mean));
  return g;
}

void register_po_gp_ucb_algorithms(schema::Registry<protocol::AlgorithmEntry>& registry) {
  struct Named {
    const char* name;
    const char* summary;
    bool is_private;
  };
  constexpr Named kNames[] = {
      {"po_gp_ucb",
       "PO-GP-UCB: a curator releases a random projection of its inputs, a modeler runs GP-UCB "
       "on it (Kharkovskii, Dai & Low 2020)",
       true},
      {"gp_ucb", "GP-UCB on the curator's inputs themselves, non-private (PO-GP-UCB's baseline)",
       false},
  };
  for (const Named& n : kNames) {
    PoGpUcbConfig defaults;
    defaults.name = n.name;
    protocol::AlgorithmEntry e = protocol::make_algorithm_entry<PoGpUcbConfig>(
        n.name, n.summary, po_gp_ucb_keys(), defaults, validate_po_gp_ucb,
        [](PoGpUcbConfig c, const protocol::ExperimentFacts&) { return build(std::move(c)); });
    if (n.is_private) {
      // N (epsilon, delta) releases: basic composition, at the sum of their deltas.
      e.experiment_presets = {{"server.accountant", std::string("basic")}};
      e.accounting = [](const protocol::Algorithm& a, int agents) {
        return protocol::AccountingDefaults{std::nullopt,
                                            privacy::composed_delta(a.possible_events(agents))};
      };
    }
    e.privacy_keys = {"curator.epsilon", "curator.delta", "agents.count"};
    e.traits.needs_finite_domain = true;
    e.traits.schedules_why =
        "it has no server releasing during the run (the curator releases once, before round 0) "
        "and its GP-UCB agents would need pending-point rules for asynchronous proposals";
    registry.add(std::move(e));
  }
}

}  // namespace fbosim::systems

#include "algorithms/systems/algorithm_registry.hpp"

#include "algorithms/systems/dp_bo_system.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "algorithms/systems/fts_target_system.hpp"
#include "algorithms/systems/po_gp_ucb_system.hpp"

namespace fbosim::systems {

const schema::Registry<protocol::AlgorithmEntry>& algorithm_registry() {
  static const schema::Registry<protocol::AlgorithmEntry> r = [] {
    schema::Registry<protocol::AlgorithmEntry> out;
    register_fts_de_algorithms(out);      // fts_de, ts, fts, dp_fts, dp_fts_de
    register_fts_target_algorithms(out);  // fts_target, rgpe, taf
    register_po_gp_ucb_algorithms(out);   // po_gp_ucb, gp_ucb
    register_dp_bo_algorithm(out);        // dp_bo
    return out;
  }();
  return r;
}

}  // namespace fbosim::systems

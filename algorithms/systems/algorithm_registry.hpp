#pragma once
// The registry of selectable algorithms (`algorithm`): every entry is defined beside its system
// (fts_de_keys.cpp, fts_target_keys.cpp, po_gp_ucb_keys.cpp, dp_bo_keys.cpp) and listed once,
// in documentation order, in algorithm_registry.cpp. An explicit list rather than static
// self-registration: the order is fixed (it is the order of the docs, of `fbosim keys` and of
// the choices in messages), and a linker never drops an entry whose file nothing else uses.
#include "algorithms/protocol/algorithm_entry.hpp"
#include "schema/registry.hpp"

namespace fbosim::systems {

/// Every algorithm, the DP-FTS-DE family first (the default is dp_fts_de).
const schema::Registry<protocol::AlgorithmEntry>& algorithm_registry();

}  // namespace fbosim::systems

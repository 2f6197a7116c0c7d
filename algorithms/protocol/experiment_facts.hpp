#pragma once
// What an algorithm may know of the rest of the experiment, in a file of its own: the registry
// entry's checks (algorithm_entry.hpp) and the resource estimate (resource_estimate.hpp) both
// read it, and neither includes the other's file for it.
#include <cstdint>
#include <string>

#include "core/box.hpp"

namespace fbosim::protocol {

/// What an algorithm's checks across keys may know of the rest of the experiment (the config
/// reader fills it from the experiment's keys and the objective family's traits).
struct ExperimentFacts {
  std::string algorithm;  ///< the registry name being read (several share one entry's code)
  int agents = 1;         ///< agents.count
  std::string family;     ///< objective.family, for messages
  core::DomainKind domain = core::DomainKind::box;
  int dimension = 0;            ///< the objectives' input dimension
  long long domain_points = 0;  ///< the points of a finite domain (0: a box)
  bool real_data = false;       ///< the family reads data files (the same objectives every run)
  int runs = 1;                 ///< runs (for the resource estimate)
  int rounds = 1;               ///< rounds (for the resource estimate)
  std::uint64_t seed = 0;       ///< seed (draws fixed for the whole experiment: personal.tiers)
  /// The objectives certify Kusner et al.'s Assumption 2 (core/convex_lipschitz_score.hpp).
  bool convex_lipschitz_score = false;
  /// The work of one objective evaluation in the estimate's operations (0: negligible beside
  /// the algorithm's, as for the synthetic families), and what it is (ObjectiveFamilyEntry::
  /// evaluation_work).
  double evaluation_work = 0;
  std::string evaluation_what{};
};

}  // namespace fbosim::protocol

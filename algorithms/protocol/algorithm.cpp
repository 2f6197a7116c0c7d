#include "algorithms/protocol/algorithm.hpp"

namespace fbosim::protocol {

bool Algorithm::is_private(int agents) const {
  for (const privacy::DpEvent& e : possible_events(agents))
    if (!e.as<privacy::NoOp>()) return true;
  return false;
}

std::vector<std::unique_ptr<const AuditableRelease>> Algorithm::auditable_releases(
    const AuditInputs&) const {
  return {};
}

std::vector<AuditDetail> Algorithm::run_facts(const AuditInputs&) const { return {}; }

void Algorithm::estimate(const ExperimentFacts&, ResourceEstimate&) const {}

}  // namespace fbosim::protocol

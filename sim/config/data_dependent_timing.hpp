#pragma once
// Durations that depend on data (timing.duration.scale_by: records; issue 41 sec. 3, docs/TIME.md
// "Durations that depend on data"). The time line is then a function of the agents' data: when
// an agent's messages arrive, and with them which release holds which message, reveal it. The
// combination is admitted only where run::release_charge can still account it soundly: release
// instants and a release count fixed in advance (periodic, latest or deadline with
// schedule.releases; buffered's instants would follow the data), the trusted server (a secure
// sum's public count of shares or a local message's sending instant would follow the data), no
// personal rates or budgets, and events that have a replace-one form; every agent is then charged
// for every release at twice the sensitivity.
#include <string>

#include "sim/config/config_source.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::config {

/// Under a scale_by other than none: throws schema's error naming the key (and `personal_key`
/// for personal rates) for a combination that cannot be accounted soundly or an objective
/// without records; otherwise reads every agent's record count from the objective's data into
/// s.timing.records. Nothing under scale_by none.
void check_data_dependent_timing(const ConfigSource& src, ExperimentSpec& s,
                                 const std::string& personal_key);

}  // namespace fbosim::config

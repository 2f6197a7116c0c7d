#include "sim/config/data_dependent_timing.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/neighbour_relation.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "datasets/objective_factory.hpp"
#include "schema/problem.hpp"
#include "sim/config/config_reader.hpp"

namespace fbosim::config {

namespace {

constexpr const char* kKey = "timing.duration.scale_by";

// The privacy plan's events must have a replace-one form (release_charge's replace_one) and be
// the releases' alone: an event before the first or after the last evaluation is accounted for
// neighbours that add or remove an agent, which the data-dependent time line no longer gives.
void check_events(const ExperimentSpec& s, const std::string& personal_key,
                  schema::Problems& problems) {
  const protocol::PrivacyPlan plan = s.system->privacy_plan(s.agents);
  if (!plan.agent_round.empty())
    problems.push_back(
        {personal_key,
         "personal rates and budgets are refused with timing.duration.scale_by: records: every "
         "agent is charged for every release at one event there (docs/TIME.md)"});
  const auto noop = [](const privacy::DpEvent& e) { return e.as<privacy::NoOp>() != nullptr; };
  if (!std::all_of(plan.setup.begin(), plan.setup.end(), noop) ||
      !std::all_of(plan.final.begin(), plan.final.end(), noop))
    problems.push_back(
        {kKey, fmt::format("algorithm {} releases before the first or after the last evaluation; "
                           "with durations that depend on data only the releases on the time "
                           "line are accounted (docs/TIME.md)",
                           s.system->name())});
  try {
    (void)privacy::replace_one(privacy::without_sampling(plan.round));
  } catch (const std::invalid_argument& e) {
    problems.push_back({kKey, fmt::format("algorithm {}'s release cannot be charged for "
                                          "neighbours that replace one agent's data: {}",
                                          s.system->name(), e.what())});
  }
}

// Every agent's record count from the objective family (its data loaded once here).
void read_records(const ConfigSource& src, ExperimentSpec& s) {
  std::vector<std::int64_t> records;
  try {
    records = datasets::make_objective_family(s.objective)->records(s.agents);
  } catch (const std::exception& e) {
    throw ConfigError(src.source() + ": " + kKey + ": records: " + e.what());
  }
  if (records.empty())
    schema::throw_first(
        src, {{"objective.family",
               fmt::format("'{}' has no records per agent, which timing.duration.scale_by: "
                           "records needs (landmine, landmine_logistic, emnist, activity have)",
                           s.objective.family)}});
  s.timing.records = std::move(records);
}

}  // namespace

void check_data_dependent_timing(const ConfigSource& src, ExperimentSpec& s,
                                 const std::string& personal_key) {
  if (!s.timing.data_dependent()) return;
  schema::Problems problems;
  const protocol::ScheduleKind kind = s.schedule.kind;
  if (kind == protocol::ScheduleKind::buffered)
    problems.push_back(
        {kKey,
         "records is refused with schedule.kind: buffered: a release follows the K-th "
         "arrival, whose instant would reveal the agents' data (docs/TIME.md); use "
         "periodic, latest or deadline with schedule.releases"});
  else if (s.schedule.releases == 0)
    problems.push_back(
        {"schedule.releases",
         "must fix the number of releases (> 0) with timing.duration.scale_by: records: "
         "releasing until the last message would end at an instant that depends on the agents' "
         "data (docs/TIME.md)"});
  const systems::FtsDeConfig* fts = systems::fts_de_config(s.system.get());
  if (fts && fts->dp && fts->mechanism.trust.trust != server::Trust::central)
    problems.push_back(
        {"server.trust",
         "must be central with timing.duration.scale_by: records: a secure sum's public count of "
         "shares, or a local message's sending instant, would depend on the agents' data "
         "(docs/TIME.md)"});
  check_events(s, personal_key, problems);
  schema::throw_first(src, problems);
  read_records(src, s);
}

}  // namespace fbosim::config

#include "sim/run/schedule_ledgers.hpp"

#include "sim/run/schedule_stops.hpp"

namespace fbosim::run {

AgentPrivacy replay_schedule_ledgers(const config::ExperimentSpec& spec, int run) {
  return std::move(replay_schedule(spec, run).ledgers);
}

}  // namespace fbosim::run

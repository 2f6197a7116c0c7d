#pragma once
// output.time_grid, output.time_end, output.target_regret: the outputs on simulated time of the
// schedules other than `rounds` (sim/run/time_summary.hpp; docs/TIME.md, "Outputs"). Read only
// where a config gives one of them, and refused under `rounds` (it has no clock).
#include "schema/group.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::config {

inline const schema::Group<TimeOutputSpec>& time_output_keys() {
  using T = TimeOutputSpec;
  using schema::Range;
  static const auto g =
      schema::Group<T>{}
          .integer("output.time_grid", &T::grid, Range::closed(2, 100000),
                   "summary_time.csv and agents_time.csv (under a schedule.kind other than "
                   "rounds): the number of equally spaced instants of simulated time, 0 and "
                   "output.time_end included, at which the agents' regret and best value are "
                   "averaged and their epsilon quantiles taken")
          .real("output.time_end", &T::end, Range::left_open(0, 1e9),
                "the last instant of the time grid (summary_time.csv, agents_time.csv), in seconds "
                "of simulated time; give "
                "the same value to compare schedules on one grid")
          .note("the last completion of a measured agent over the runs")
          .real("output.target_regret", &T::target_regret, Range::at_least(0),
                "time_to_target.csv: the time at which each run's mean regret over its measured "
                "agents first falls to this value or below (the mean and standard error over "
                "the runs that reach it, and how many never do)")
          .note("none (no time_to_target.csv)");
  return g;
}

}  // namespace fbosim::config

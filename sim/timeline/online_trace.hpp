#pragma once
// A per-agent trace of online intervals (timing.availability.model: trace), FedScale-style:
// a CSV file with the header `agent,start,end` and one row per interval, agent a
// non-negative integer, start < end times in seconds (decimal numbers >= 0). Read strictly:
// any other header, a row without exactly three fields, a value that is not a number, a
// negative or non-finite time, an interval shorter than one tick after the tick rule, or an
// agent's intervals out of order (by start) or overlapping is an error naming the file, the
// line and the value; nothing is guessed. Intervals of one agent that touch (end = next
// start) are joined. Rows of different agents may interleave. A final newline is optional;
// "\r\n" line ends are accepted.
#include <cstddef>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "sim/timeline/availability.hpp"

namespace fbosim::timeline {

class OnlineTrace {
 public:
  /// Reads the file at `path` (std::runtime_error "<path>: cannot open ..." when it cannot).
  static OnlineTrace read(const std::string& path);
  /// Reads from `in`, naming it `name` in messages (std::runtime_error "<name>:<line>: ...").
  static OnlineTrace parse(std::istream& in, const std::string& name);

  const std::string& name() const { return name_; }
  /// Agent n's intervals, sorted and disjoint (empty when the trace has none).
  const std::vector<Interval>& intervals(int agent) const;
  /// The agents with intervals, ascending, with the line of each one's first row.
  const std::map<int, std::size_t>& first_lines() const { return first_line_; }

 private:
  std::string name_;
  std::map<int, std::vector<Interval>> by_agent_;
  std::map<int, std::size_t> first_line_;
};

}  // namespace fbosim::timeline

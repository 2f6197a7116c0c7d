#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "sim/timeline/online_trace.hpp"
#include "sim/timeline/trace_availability.hpp"

using namespace fbosim::timeline;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {
OnlineTrace parse(const std::string& text) {
  std::istringstream in(text);
  return OnlineTrace::parse(in, "trace.csv");
}
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("online trace: intervals per agent in ticks, touching ones joined, rows interleaved") {
  const OnlineTrace t =
      parse("agent,start,end\r\n0,0,1.5\r\n1,10,20\n0,1.5,2\n0,3.000001,4\n1,30,40.25");
  CHECK(t.intervals(0) == std::vector<Interval>{{0, 2'000'000}, {3'000'001, 4'000'000}});
  CHECK(t.intervals(1) ==
        std::vector<Interval>{{10'000'000, 20'000'000}, {30'000'000, 40'250'000}});
  CHECK(t.intervals(2).empty());
  CHECK(t.first_lines() == std::map<int, std::size_t>{{0, 2}, {1, 3}});
}

TEST_CASE("online trace: strict reading, errors naming the file, the line and the value") {
  CHECK_THROWS_WITH(parse(""), Equals("trace.csv:1: empty file: expected the header "
                                      "'agent,start,end'"));
  CHECK_THROWS_WITH(parse("agent,start,end\n"), Equals("trace.csv: the trace has no intervals"));
  CHECK(error_of("client,start,end\n0,0,1") ==
        "trace.csv:1: the header must be 'agent,start,end', got 'client,start,end'");
  CHECK(error_of("agent,start,end\n0,0,1\n0,2") ==
        "trace.csv:3: expected 3 fields (agent,start,end), got 2 in '0,2'");
  CHECK(error_of("agent,start,end\n0,0,1\n\n") ==
        "trace.csv:3: expected 3 fields (agent,start,end), got 1 in ''");
  CHECK(error_of("agent,start,end\nx,0,1") ==
        "trace.csv:2: agent 'x' is not an agent number (an integer >= 0)");
  CHECK(error_of("agent,start,end\n-1,0,1") ==
        "trace.csv:2: agent '-1' is not an agent number (an integer >= 0)");
  CHECK(error_of("agent,start,end\n0,1x,2") ==
        "trace.csv:2: start '1x' is not a number of seconds");
  CHECK(error_of("agent,start,end\n0,0,inf") ==
        "trace.csv:2: end 'inf' is not a number of seconds");
  CHECK(error_of("agent,start,end\n0, 0,1") ==
        "trace.csv:2: start ' 0' is not a number of seconds");
  CHECK(error_of("agent,start,end\n0,-1,1") == "trace.csv:2: start '-1' is negative");
  CHECK(error_of("agent,start,end\n0,2,2") ==
        "trace.csv:2: end '2' must be after start '2' (by at least one microsecond)");
  CHECK_THAT(error_of("agent,start,end\n0,0,1e13"),
             Contains("trace.csv:2: end: a time of 1e+13 s is outside"));
  CHECK(error_of("agent,start,end\n0,5,6\n1,0,1\n0,3,4") ==
        "trace.csv:4: start '3' is before the start of agent 0's previous interval (5 s): each "
        "agent's intervals must be sorted by start");
  CHECK(error_of("agent,start,end\n0,5,7\n0,6.5,8") ==
        "trace.csv:3: start '6.5' is inside agent 0's previous interval [5, 7) s: intervals must "
        "not overlap");
}

TEST_CASE("online trace: every agent needs an interval, and no agent outside the experiment") {
  CHECK_THROWS_WITH(TraceAvailability(parse("agent,start,end\n0,0,1\n2,0,1"), 3),
                    Equals("trace.csv: agent 1 has no online interval (every agent 0..2 needs at "
                           "least one)"));
  CHECK_THROWS_WITH(TraceAvailability(parse("agent,start,end\n0,0,1\n1,0,1\n5,0,1"), 2),
                    Equals("trace.csv:4: agent 5 is outside the experiment's agents 0..1 "
                           "(agents.count = 2)"));
  const TraceAvailability a(parse("agent,start,end\n0,0,1\n0,2,3"), 1);
  CHECK(a.interval(0, 1, {}) == Interval{2'000'000, 3'000'000});
  CHECK_FALSE(a.interval(0, 2, {}).has_value());  // offline for ever after its last interval
  CHECK_THROWS_WITH(OnlineTrace::read("/nonexistent/trace.csv"),
                    Equals("/nonexistent/trace.csv: cannot open the availability trace "
                           "(timing.availability.trace)"));
}

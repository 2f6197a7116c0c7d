#include "sim/timeline/online_trace.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

namespace fbosim::timeline {

namespace {
constexpr std::string_view kHeader = "agent,start,end";

struct TraceLine {
  const std::string& name;
  std::size_t line;
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(fmt::format("{}:{}: {}", name, line, what));
  }
};

std::vector<std::string_view> split_fields(std::string_view row) {
  std::vector<std::string_view> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = row.find(',', from);
    out.push_back(row.substr(from, comma - from));
    if (comma == std::string_view::npos) return out;
    from = comma + 1;
  }
}

int parse_agent(std::string_view s, const TraceLine& at) {
  int agent = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), agent);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || agent < 0)
    at.fail(fmt::format("agent '{}' is not an agent number (an integer >= 0)", s));
  return agent;
}

Tick parse_time(std::string_view s, std::string_view column, const TraceLine& at) {
  double x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(x))
    at.fail(fmt::format("{} '{}' is not a number of seconds", column, s));
  if (x < 0) at.fail(fmt::format("{} '{}' is negative", column, s));
  try {
    return time_ticks(x, column);
  } catch (const std::invalid_argument& e) {
    at.fail(e.what());
  }
}
}  // namespace

OnlineTrace OnlineTrace::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error(path +
                             ": cannot open the availability trace (timing.availability.trace)");
  return parse(in, path);
}

OnlineTrace OnlineTrace::parse(std::istream& in, const std::string& name) {
  OnlineTrace t;
  t.name_ = name;
  std::string row;
  std::size_t line = 0;
  while (std::getline(in, row)) {
    ++line;
    if (!row.empty() && row.back() == '\r') row.pop_back();
    const TraceLine at{name, line};
    if (line == 1) {
      if (row != kHeader) at.fail(fmt::format("the header must be '{}', got '{}'", kHeader, row));
      continue;
    }
    const std::vector<std::string_view> f = split_fields(row);
    if (f.size() != 3)
      at.fail(fmt::format("expected 3 fields (agent,start,end), got {} in '{}'", f.size(), row));
    const int agent = parse_agent(f[0], at);
    const Interval i{parse_time(f[1], "start", at), parse_time(f[2], "end", at)};
    if (i.end <= i.start)
      at.fail(fmt::format("end '{}' must be after start '{}' (by at least one microsecond)", f[2],
                          f[1]));
    std::vector<Interval>& list = t.by_agent_[agent];
    t.first_line_.emplace(agent, line);
    if (!list.empty()) {
      const Interval& last = list.back();
      if (i.start < last.start)
        at.fail(
            fmt::format("start '{}' is before the start of agent {}'s previous interval ({} "
                        "s): each agent's intervals must be sorted by start",
                        f[1], agent, seconds(last.start)));
      if (i.start < last.end)
        at.fail(
            fmt::format("start '{}' is inside agent {}'s previous interval [{}, {}) s: "
                        "intervals must not overlap",
                        f[1], agent, seconds(last.start), seconds(last.end)));
      if (i.start == last.end) {
        list.back().end = i.end;  // touching: one online period
        continue;
      }
    }
    list.push_back(i);
  }
  if (line == 0)
    throw std::runtime_error(name + ":1: empty file: expected the header '" + std::string(kHeader) +
                             "'");
  if (t.by_agent_.empty()) throw std::runtime_error(name + ": the trace has no intervals");
  return t;
}

const std::vector<Interval>& OnlineTrace::intervals(int agent) const {
  static const std::vector<Interval> kNone;
  const auto it = by_agent_.find(agent);
  return it == by_agent_.end() ? kNone : it->second;
}

}  // namespace fbosim::timeline

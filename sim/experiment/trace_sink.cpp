#include "sim/experiment/trace_sink.hpp"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

namespace fbosim::sim {

void CsvTraceSink::query(const QueryRow& r) {
  auto out = std::back_inserter(out_);
  fmt::format_to(out, "{},{},{}", r.run, r.agent, r.round);
  for (Eigen::Index k = 0; k < r.x.size(); ++k) fmt::format_to(out, ",{}", r.x[k]);
  fmt::format_to(out, ",{},{},{},", r.y, r.f, r.best_f);
  if (std::isfinite(r.regret)) fmt::format_to(out, "{}", r.regret);
  fmt::format_to(out, ",{}\n", r.source);
}

}  // namespace fbosim::sim

#include "sim/run/trace_sink.hpp"

#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::run {

void CsvTraceSink::query(const QueryRow& r) {
  auto out = std::back_inserter(out_);
  fmt::format_to(out, "{},{},{}", r.run, r.agent, r.round);
  for (Eigen::Index k = 0; k < r.x.size(); ++k) fmt::format_to(out, ",{}", r.x[k]);
  fmt::format_to(out, ",{},{},{},", r.y, r.f, r.best_f);
  if (std::isfinite(r.regret)) fmt::format_to(out, "{}", r.regret);
  fmt::format_to(out, ",{}\n", r.source);
}

std::string release_csv_header(int dim) {
  // release_epsilon, release_delta: the row's own guarantee. Not `epsilon`: a column of that name
  // holds everything the run spent (summary.csv), which is more with several releases.
  std::string h =
      "run,agent,quantity,mechanism,release_epsilon,release_delta,sensitivity,value,nonprivate";
  for (int k = 0; k < dim; ++k) h += fmt::format(",x{}", k);
  return h + ",f,regret,evaluations\n";
}

void append_release_row(std::string& out, int run, const protocol::ReleaseRow& r, int dim) {
  if (r.point && r.point->size() != dim)
    throw std::invalid_argument(
        fmt::format("release row of agent {}: a point of {} coordinates, "
                    "the domain has {}",
                    r.agent, r.point->size(), dim));
  auto it = std::back_inserter(out);
  const auto cell = [&](const std::optional<double>& v) {
    if (v && std::isfinite(*v))
      fmt::format_to(it, ",{}", *v);
    else
      fmt::format_to(it, ",");
  };
  fmt::format_to(it, "{},{},{},{}", run, r.agent, r.quantity, r.mechanism);
  cell(r.epsilon);
  cell(r.delta);
  cell(r.sensitivity);
  cell(r.value);
  cell(r.nonprivate);
  for (int k = 0; k < dim; ++k) cell(r.point ? std::optional<double>((*r.point)[k]) : std::nullopt);
  cell(r.f);
  cell(r.regret);
  fmt::format_to(it, ",{}\n", r.evaluations);
}

}  // namespace fbosim::run

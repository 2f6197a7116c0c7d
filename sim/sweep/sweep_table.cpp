#include "sim/sweep/sweep_table.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/output/atomic_file.hpp"
#include "sim/output/csv_table.hpp"

namespace fbosim::sweep {

namespace {
const std::vector<std::string> kUtility = {"mean_regret", "se_regret", "mean_best_f", "se_best_f"};
const std::vector<std::string> kTail = {"clipped_fraction", "seconds"};
const std::string kStop = "server_stop";

// The privacy columns: epsilon, delta, epsilon_<accountant>...
bool is_epsilon(const std::string& column) {
  return column.rfind("epsilon", 0) == 0 || column == "delta";
}
}  // namespace

std::string SweepRow::metric(const std::string& column) const {
  for (const auto& [name, value] : metrics)
    if (name == column) return value;
  return "";
}

std::vector<std::string> SweepTable::metric_columns() const {
  if (!results) return {};
  std::vector<std::string> out = kUtility;
  for (const SweepRow& r : rows)
    for (const auto& [name, value] : r.metrics)
      if (is_epsilon(name) && std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
  // Only where some point has a stop rule (server.budget, server.stop_p): every other sweep.csv
  // stays as it was, byte for byte.
  for (const SweepRow& r : rows)
    if (std::any_of(r.metrics.begin(), r.metrics.end(),
                    [](const auto& m) { return m.first == kStop; })) {
      out.push_back(kStop);
      break;
    }
  out.insert(out.end(), kTail.begin(), kTail.end());
  return out;
}

std::string SweepTable::text() const {
  const std::vector<std::string> metrics = metric_columns();
  // Appended cell by cell (GCC 12 warns falsely on `"," + std::string` under -O2).
  std::string out = "point";
  auto cell = [&out](const std::string& value) {
    out += ',';
    out += output::csv_field(value);
  };
  for (const std::string& k : keys) cell(k);
  for (const std::string& m : metrics) cell(m);
  out += ",dir\n";
  for (const SweepRow& r : rows) {
    out += std::to_string(r.point);
    for (const std::string& v : r.values) cell(v);
    for (const std::string& m : metrics) cell(r.metric(m));
    cell(r.dir);
    out += '\n';
  }
  return out;
}

void SweepTable::write(const std::string& path) const {
  output::AtomicFile file(path);
  file.write(text());
  file.commit();
}

SweepTable SweepTable::read(const std::string& path) {
  const output::CsvTable csv = output::CsvTable::read(path);
  const auto& h = csv.header;
  if (h.size() < 2 || h.front() != "point" || h.back() != "dir")
    throw std::runtime_error(path + ": not a sweep table (expected columns point,...,dir)");
  // Keys run from column 1 to the first utility column (or to dir in a plan).
  std::size_t first_metric = 1;
  while (first_metric + 1 < h.size() && h[first_metric] != kUtility.front()) ++first_metric;
  SweepTable t;
  t.results = h[first_metric] == kUtility.front();
  t.keys.assign(h.begin() + 1, h.begin() + static_cast<long>(first_metric));
  for (const auto& cells : csv.rows) {
    SweepRow r;
    try {
      std::size_t used = 0;
      r.point = std::stoi(cells[0], &used);
      if (used != cells[0].size() || r.point < 0) throw std::invalid_argument("point");
    } catch (const std::exception&) {
      throw std::runtime_error(path + ": bad point index '" + cells[0] + "'");
    }
    r.values.assign(cells.begin() + 1, cells.begin() + static_cast<long>(first_metric));
    for (std::size_t k = first_metric; k + 1 < h.size(); ++k)
      r.metrics.emplace_back(h[k], cells[k]);
    r.dir = cells.back();
    t.rows.push_back(std::move(r));
  }
  return t;
}

}  // namespace fbosim::sweep

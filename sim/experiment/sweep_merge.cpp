#include "sim/experiment/sweep_merge.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/experiment/sweep_lock.hpp"
#include "sim/experiment/sweep_table.hpp"

namespace fbosim::sim {

namespace {
namespace fs = std::filesystem;

bool same_plan(const SweepTable& a, const SweepTable& b) {
  if (a.keys != b.keys || a.rows.size() != b.rows.size()) return false;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    if (a.rows[i].point != b.rows[i].point || a.rows[i].values != b.rows[i].values ||
        a.rows[i].dir != b.rows[i].dir)
      return false;
  return true;
}

// Results agree when every metric but the wall time is equal (same config, same program).
bool same_results(const SweepRow& a, const SweepRow& b) {
  auto strip = [](const SweepRow& r) {
    std::map<std::string, std::string> m(r.metrics.begin(), r.metrics.end());
    m.erase("seconds");
    return m;
  };
  return strip(a) == strip(b);
}
// The build id in a point's sweep.done ("" if it has none).
std::string build_of(const std::string& point_dir) {
  std::ifstream in(point_dir + "/sweep.done");
  std::string word, value;
  while (in >> word >> value)
    if (word == "build") return value;
  return "";
}
}  // namespace

MergeReport merge_sweeps(const std::vector<std::string>& dirs, const std::string& out_dir) {
  if (dirs.empty()) throw std::invalid_argument("merge: no input directories");
  MergeReport report;
  report.out_dir = out_dir;
  SweepTable plan;
  std::string plan_source;
  std::map<int, SweepRow> rows;
  std::map<int, std::string> row_source;
  std::string build, build_source;  // every merged point must come from one build
  for (const std::string& dir : dirs) {
    const std::string plan_path = dir + "/sweep_plan.csv";
    if (!fs::exists(plan_path))
      throw std::runtime_error("merge: " + plan_path + " not found: not a sweep directory");
    SweepTable p = SweepTable::read(plan_path);
    if (plan_source.empty()) {
      plan = std::move(p);
      plan_source = plan_path;
    } else if (!same_plan(plan, p)) {
      throw std::runtime_error("merge: " + plan_path + " differs from " + plan_source +
                               ": not shards of the same sweep");
    }
    const std::string csv_path = dir + "/sweep.csv";
    if (!fs::exists(csv_path)) continue;
    const SweepTable t = SweepTable::read(csv_path);
    if (t.keys != plan.keys)
      throw std::runtime_error("merge: " + csv_path + " sweeps other keys than " + plan_source);
    for (SweepRow r : t.rows) {
      const auto at = static_cast<std::size_t>(r.point);
      if (at >= plan.rows.size() || plan.rows[at].values != r.values)
        throw std::runtime_error(
            fmt::format("merge: {}: point {} does not match {}", csv_path, r.point, plan_source));
      const std::string point_dir = (fs::path(dir) / r.dir).string();
      const std::string made_by = build_of(point_dir);
      if (!made_by.empty()) {
        if (build.empty()) {
          build = made_by;
          build_source = point_dir;
        } else if (made_by != build) {
          throw std::runtime_error("merge: " + point_dir + " was made by build " + made_by +
                                   " and " + build_source + " by build " + build +
                                   ": re-run the shards with one build (fbosim --version)");
        }
      }
      r.dir = fs::proximate(point_dir, out_dir).string();
      const auto [it, fresh] = rows.emplace(r.point, r);
      if (fresh) {
        row_source[r.point] = csv_path;
      } else if (same_results(it->second, r)) {
        ++report.duplicates;
      } else {
        throw std::runtime_error(fmt::format(
            "merge: point {} ({}) has different results in {} and {}; remove one of them", r.point,
            plan.rows[at].dir, row_source[r.point], csv_path));
      }
    }
  }
  report.points = static_cast<int>(plan.rows.size());
  SweepTable out{plan.keys, {}, true};
  for (const SweepRow& p : plan.rows) {
    const auto it = rows.find(p.point);
    if (it == rows.end()) {
      report.missing.push_back(p.dir);
    } else {
      out.rows.push_back(it->second);
    }
  }
  report.rows = static_cast<int>(out.rows.size());
  // Every input was read and checked first: a failed merge creates nothing.
  const SweepLock lock(out_dir);
  plan.write(out_dir + "/sweep_plan.csv");
  out.write(out_dir + "/sweep.csv");
  return report;
}

}  // namespace fbosim::sim

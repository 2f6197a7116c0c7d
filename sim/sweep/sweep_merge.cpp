#include "sim/sweep/sweep_merge.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/output/atomic_file.hpp"
#include "sim/output/created_directories.hpp"
#include "sim/output/csv_table.hpp"
#include "sim/output/directory_lock.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/output/provenance.hpp"
#include "sim/sweep/sweep_done.hpp"

namespace fbosim::sweep {

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

std::string slurp(const std::string& path, bool& found) {
  std::error_code ec;
  found = fs::is_regular_file(path, ec);  // a FIFO would block
  if (!found) return "";
  std::ifstream in(path, std::ios::binary);
  found = static_cast<bool>(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A sweep table's path checked to be a regular file before it is read (a FIFO would block).
const std::string& regular(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw std::runtime_error(path + " is not a regular file");
  return path;
}

// Why `row` is not what the point's files in `point_dir` say ("" if it is): every metric that
// is a column of its summary.csv equals that column's last row, and clipped_fraction equals
// what its server.csv gives (the sweep computes both the same way: sweep_runner.cpp).
std::string row_mismatch(const std::string& point_dir, const SweepRow& row) {
  const output::CsvTable summary = output::CsvTable::read(point_dir + "/summary.csv");
  if (summary.rows.empty()) return "its summary.csv has no rows";
  const auto& last = summary.rows.back();
  for (const auto& [name, value] : row.metrics) {
    const int c = summary.find(name);
    if (c >= 0 && last[static_cast<std::size_t>(c)] != value)
      return fmt::format("its sweep.csv row has {} {}, its summary.csv {}", name, value,
                         last[static_cast<std::size_t>(c)]);
  }
  const std::string clipped = row.metric("clipped_fraction");
  if (clipped.empty()) return "";
  const output::CsvTable server = output::CsvTable::read(point_dir + "/server.csv");
  const int cc = server.find("clipped"), cs = server.find("selected");
  if (cc < 0 || cs < 0) return "its sweep.csv row has a clipped_fraction but its server none";
  double sum_clipped = 0, sum_selected = 0;
  for (const auto& r : server.rows) {
    sum_clipped += std::atof(r[static_cast<std::size_t>(cc)].c_str());
    sum_selected += std::atof(r[static_cast<std::size_t>(cs)].c_str());
  }
  const std::string expected =
      sum_selected > 0 ? fmt::format("{}", sum_clipped / sum_selected) : "";
  if (expected != clipped)
    return fmt::format("its sweep.csv row has clipped_fraction {}, its server.csv gives {}",
                       clipped, expected.empty() ? "none" : expected);
  return "";
}

// Why the point in `point_dir` is not the finished point its row says ("" if it is); `done`
// receives its sweep.done.
std::string point_problem(const std::string& point_dir, const SweepRow& row, SweepDone& record) {
  std::string problem;
  const std::optional<SweepDone> done = SweepDone::read(point_dir, problem);
  if (!done)
    return problem.empty() ? "it has no sweep.done (unfinished, or its files were replaced)"
                           : problem;
  bool found = false;
  const std::string config = slurp(point_dir + "/config.resolved.yaml", found);
  if (!found) return "config.resolved.yaml is missing";
  problem = done->mismatch(point_dir, done->build, config);
  if (!problem.empty()) return problem;
  record = *done;
  try {
    return row_mismatch(point_dir, row);
  } catch (const std::exception& e) {
    return e.what();
  }
}

// Writes out_dir/sweep_plan.csv and out_dir/sweep.csv as one set, or nothing: both are written
// out before either is named, a failure after the first is named removes it again (unless it
// was there before: a plan can be replaced only by the same plan or with --force), and the
// directories made for them are removed after a failure. The output is checked under its lock.
void write_merged(const std::string& out_dir, const SweepTable& plan, const SweepTable& out,
                  bool force, const MergeReport& report, bool allow_missing) {
  const output::CreatedDirectories created(out_dir);
  const auto remove_created = [&] { created.remove_empty(); };
  const std::string plan_path = out_dir + "/sweep_plan.csv", csv_path = out_dir + "/sweep.csv";
  const bool had_plan = fs::exists(fs::symlink_status(plan_path));
  try {
    {
      const output::DirectoryLock lock(out_dir);
      check_sweep_dir(out_dir, plan, false, force);
      // After the output's own checks (busy, another sweep), which say more.
      if (!report.missing.empty() && !allow_missing) throw MergeIncomplete(report);
      output::AtomicFile plan_file(plan_path), csv_file(csv_path);
      plan_file.write(plan.text());
      csv_file.write(out.text());
      plan_file.flush();
      csv_file.flush();
      const output::CommitLock both;  // an exit by the watchdog waits for the pair
      plan_file.commit();
      try {
        csv_file.commit();
      } catch (...) {
        std::error_code ec;
        if (!had_plan) fs::remove(plan_path, ec);
        throw;
      }
    }
  } catch (...) {
    remove_created();
    throw;
  }
}

std::string missing_text(const MergeReport& r) {
  std::string names;
  for (std::size_t k = 0; k < r.missing.size() && k < 20; ++k) names += "\n  " + r.missing[k];
  if (r.missing.size() > 20) names += fmt::format("\n  ... and {} more", r.missing.size() - 20);
  return fmt::format(
      "merge: {} point(s) missing (of {} in the plan), found in none of the directories given; "
      "nothing was written (--allow-missing writes the incomplete sweep.csv):{}",
      r.missing.size(), r.points, names);
}
}  // namespace

MergeIncomplete::MergeIncomplete(const MergeReport& report)
    : std::runtime_error(missing_text(report)), report_(report) {}

void check_sweep_dir(const std::string& dir, const SweepTable& plan, bool keys_only, bool force) {
  if (force) return;
  const std::string plan_path = dir + "/sweep_plan.csv", csv_path = dir + "/sweep.csv";
  const std::string advice = "; use --force to replace it, or another --out";
  if (!fs::exists(plan_path)) {
    if (fs::exists(csv_path))
      throw output::ResultsClash(
          dir + " holds a sweep.csv without sweep_plan.csv, so of an unknown sweep" + advice);
    return;
  }
  SweepTable old;
  try {
    old = SweepTable::read(regular(plan_path));
  } catch (const std::exception& e) {
    throw output::ResultsClash(std::string(e.what()) + ": " + dir + " may hold another sweep" +
                               advice);
  }
  if (old.keys != plan.keys) {
    std::string keys;
    for (const std::string& k : old.keys) keys += (keys.empty() ? "" : ",") + k;
    throw output::ResultsClash(dir + " holds a sweep of other keys (" + keys + ", in " + plan_path +
                               ")" + advice);
  }
  if (!keys_only && !same_plan(old, plan))
    throw output::ResultsClash(dir + " holds a sweep of another grid (" + plan_path + ")" + advice);
}

MergeReport merge_sweeps(const std::vector<std::string>& dirs, const std::string& out_dir,
                         bool force, bool allow_missing) {
  if (dirs.empty()) throw std::invalid_argument("merge: no input directories");
  MergeReport report;
  report.out_dir = out_dir;
  SweepTable plan;
  std::string plan_source;
  std::map<int, SweepRow> rows;
  std::map<int, std::string> row_source;
  std::string build, build_source;  // every merged point must come from one build
  std::string sweep, sweep_source;  // and one sweep command
  for (const std::string& dir : dirs) {
    const std::string plan_path = dir + "/sweep_plan.csv";
    if (!fs::exists(plan_path))
      throw std::runtime_error("merge: " + plan_path + " not found: not a sweep directory");
    SweepTable p = SweepTable::read(regular(plan_path));
    if (plan_source.empty()) {
      plan = std::move(p);
      plan_source = plan_path;
    } else if (!same_plan(plan, p)) {
      throw std::runtime_error("merge: " + plan_path + " differs from " + plan_source +
                               ": not shards of the same sweep");
    }
    const std::string csv_path = dir + "/sweep.csv";
    if (!fs::exists(csv_path)) continue;
    const SweepTable t = SweepTable::read(regular(csv_path));
    if (t.keys != plan.keys)
      throw std::runtime_error("merge: " + csv_path + " sweeps other keys than " + plan_source);
    for (SweepRow r : t.rows) {
      const auto at = static_cast<std::size_t>(r.point);
      if (at >= plan.rows.size() || plan.rows[at].values != r.values ||
          fs::path(r.dir).filename() != plan.rows[at].dir)
        throw std::runtime_error(
            fmt::format("merge: {}: point {} does not match {}", csv_path, r.point, plan_source));
      const std::string point_dir = (fs::path(dir) / r.dir).string();
      SweepDone done;
      const std::string problem = point_problem(point_dir, r, done);
      const std::string& made_by = done.build;
      if (!problem.empty())
        throw std::runtime_error(fmt::format(
            "merge: {}: point {} ({}) does not verify: {}; run that shard's sweep command again "
            "(it redoes the point), then merge",
            csv_path, r.point, point_dir, problem));
      if (build.empty()) {
        build = made_by;
        build_source = point_dir;
      } else if (made_by != build) {
        throw std::runtime_error("merge: " + point_dir + " was made by build " + made_by + " and " +
                                 build_source + " by build " + build +
                                 ": re-run the shards with one build (fbosim --version)");
      }
      r.dir = fs::proximate(point_dir, out_dir).string();
      const auto [it, fresh] = rows.emplace(r.point, r);
      if (fresh) {
        row_source[r.point] = csv_path;
        // Points of one sweep command: another --set or config would mix configs silently.
        if (sweep.empty()) {
          sweep = done.sweep;
          sweep_source = point_dir;
        } else if (done.sweep != sweep) {
          throw std::runtime_error(
              "merge: " + point_dir + " and " + sweep_source +
              " were made by different sweep commands (another config file or --set): merge "
              "only the shards of one sweep (run the odd shard again with the others' command)");
        }
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
  write_merged(out_dir, plan, out, force, report, allow_missing);
  return report;
}

}  // namespace fbosim::sweep

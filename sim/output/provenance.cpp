#include "sim/output/provenance.hpp"

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/server/trust_model.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "datasets/python/python_family.hpp"
#include "sim/output/build_info.hpp"

namespace fbosim::output {

namespace {
namespace fs = std::filesystem;

std::string delta_text(double delta) { return fmt::format("{}", delta); }

std::string node_text(const YAML::Node& n) {
  if (!n || n.IsNull()) return "~";
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << n;
  return e.c_str();
}

// "a.b.c" -> text of the value, for every leaf (a scalar, a sequence or a null) of a map.
void flatten(const YAML::Node& n, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (n.IsMap()) {
    for (const auto& kv : n) {
      const std::string key = kv.first.as<std::string>();
      flatten(kv.second, prefix.empty() ? key : prefix + "." + key, out);
    }
    return;
  }
  out[prefix] = node_text(n);
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-+=./:,@%") == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
}  // namespace

std::string resolved_config_text(const config::ExperimentSpec& spec, const YAML::Node& resolved) {
  YAML::Node copy = YAML::Clone(resolved);
  copy["server"]["delta"] = YAML::Load(delta_text(spec.delta()));
  YAML::Emitter yaml;
  yaml << copy;
  return std::string(yaml.c_str()) + "\n";
}

namespace {
// "0.029999999999999999" (how results written before 2026-11 record 0.03) and "0.03" are the
// same double.
bool same_number(const std::string& a, const std::string& b) {
  try {
    std::size_t ia = 0, ib = 0;
    const double x = std::stod(a, &ia), y = std::stod(b, &ib);
    return ia == a.size() && ib == b.size() && x == y;
  } catch (const std::exception&) {
    return false;
  }
}
}  // namespace

std::vector<std::string> config_differences(const YAML::Node& a, const YAML::Node& b) {
  std::map<std::string, std::string> fa, fb;
  flatten(a, "", fa);
  flatten(b, "", fb);
  // A results directory written before server.delta_rule existed records its delta as a number
  // (or `~`, below): the rule it was made by changes nothing, whatever this config's rule is.
  if (fa.count("server.delta") && !fa.count("server.delta_rule")) fb.erase("server.delta_rule");
  // A results directory written before delta was recorded holds `~`: it meant N^-1.1.
  const auto d = fa.find("server.delta"), n = fa.find("agents.count");
  if (d != fa.end() && d->second == "~" && n != fa.end()) {
    try {
      d->second = delta_text(std::pow(std::stod(n->second), -1.1));
    } catch (const std::exception&) {
      // not a number: left as `~`, so it differs
    }
  }
  std::map<std::string, std::string> keys;
  for (const auto& kv : fa) keys[kv.first];
  for (const auto& kv : fb) keys[kv.first];
  std::vector<std::string> out;
  for (const auto& kv : keys) {
    const auto x = fa.find(kv.first), y = fb.find(kv.first);
    const std::string there = x == fa.end() ? "(absent)" : x->second;
    const std::string here = y == fb.end() ? "(absent)" : y->second;
    if (there != here && !same_number(there, here))
      out.push_back(kv.first + ": " + there + " there, " + here + " here");
  }
  return out;
}

namespace {
// "a: 1 there, 2 here; ..." (the first five) for differences other than `runs` (another number
// of runs is the same experiment grown or cut, issue 28: runs are seeded by their index, so the
// finished ones are reused, sim/run/kept_runs.hpp); "" when there are none.
std::string differences_text(const YAML::Node& there, const std::string& resolved_text) {
  std::vector<std::string> diff = config_differences(there, YAML::Load(resolved_text));
  diff.erase(std::remove_if(diff.begin(), diff.end(),
                            [](const std::string& d) { return d.rfind("runs: ", 0) == 0; }),
             diff.end());
  std::string list;
  for (std::size_t k = 0; k < diff.size() && k < 5; ++k) {
    if (k) list += "; ";
    list += diff[k];
  }
  if (diff.size() > 5) list += fmt::format("; and {} more", diff.size() - 5);
  return list;
}

// The resolved config in `path`, or ResultsClash saying why it cannot be read (`what` names
// what the directory holds).
YAML::Node read_config(const std::string& path, const std::string& what,
                       const std::string& advice) {
  if (!fs::is_regular_file(path))  // a FIFO or a device would block or never end
    throw ResultsClash(path + " is not a regular file: it may hold " + what + advice);
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw ResultsClash(path + " is not readable YAML (" + e.msg + "): it may hold " + what +
                       advice);
  }
}
}  // namespace

void check_results_dir(const std::string& dir, const std::string& resolved_text, bool force) {
  if (force || !fs::is_directory(dir)) return;
  const std::string advice = "; use --force to replace them, or another --out";
  // A commit that did not end: the set is incomplete. The same config redoes it (its finished
  // runs are checkpointed); another config's is refused like its complete results.
  const std::string marker = dir + "/" + kCommitMarker;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(marker, ec))) {
    const std::string what = "the incomplete results of another config";
    const std::string diff = differences_text(read_config(marker, what, advice), resolved_text);
    if (diff.empty()) return;
    throw ResultsClash(dir +
                       " holds the incomplete results of a different config (their commit "
                       "was interrupted; " +
                       marker + "): " + diff + advice);
  }
  const std::string path = dir + "/config.resolved.yaml";
  if (!fs::exists(path)) {
    for (const char* f : {"trace.csv", "server.csv", "summary.csv"})
      if (fs::exists(dir + "/" + f))
        throw ResultsClash(dir + " holds results (" + f +
                           ") without config.resolved.yaml, so they may be of another config" +
                           advice);
    return;
  }
  const std::string diff =
      differences_text(read_config(path, "the results of another config", advice), resolved_text);
  if (diff.empty()) return;
  throw ResultsClash(dir + " holds the results of a different config (" + path + "): " + diff +
                     advice);
}

void check_no_links(const std::string& dir) {
  const auto refuse_link = [](const fs::path& p) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return;
    const fs::path target = fs::read_symlink(p, ec);
    throw LinkedResults(p.string() + " is a symbolic link (to " +
                        (ec ? std::string("an unreadable target") : target.string()) +
                        "): fbosim writes and reads results only in the directory it was "
                        "given, never through a link into another folder; remove the link (for "
                        "`fbosim run`, give its target as --out)");
  };
  fs::path d(dir);
  while (d.has_parent_path() && !d.has_filename()) d = d.parent_path();  // "dir/" -> "dir"
  refuse_link(d);
  for (const char* f :
       {"trace.csv", "server.csv", "summary.csv", "timing.csv", "release.csv",
        "config.resolved.yaml", "provenance.yaml", "sweep.done", kCommitMarker, ".fbosim-runs"})
    refuse_link(d / f);
}

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (all.empty()) return "unknown";
  std::string out, arg;
  std::stringstream s(all);
  while (std::getline(s, arg, '\0')) {
    if (!out.empty()) out += ' ';  // appended piecewise: GCC 12 warns falsely on "x" + string
    out += shell_quote(arg);
  }
  return out;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {
// The keys every provenance.yaml starts with.
void begin_record(YAML::Emitter& y, const Provenance& p) {
  const BuildInfo& b = build_info();
  y << YAML::BeginMap;
  y << YAML::Key << "version" << YAML::Value << b.version;
  y << YAML::Key << "commit" << YAML::Value << b.commit;
  y << YAML::Key << "modified" << YAML::Value << b.modified;
  y << YAML::Key << "build" << YAML::Value << b.build_id;
  y << YAML::Key << "command" << YAML::Value << p.command;
  y << YAML::Key << "cwd" << YAML::Value << p.cwd;
}
}  // namespace

std::string sweep_provenance_text(const Provenance& p, int jobs, const std::string& shard) {
  YAML::Emitter y;
  begin_record(y, p);
  y << YAML::Key << "jobs" << YAML::Value << jobs;
  y << YAML::Key << "threads" << YAML::Value << p.threads;
  y << YAML::Key << "shard" << YAML::Value << shard;
  y << YAML::Key << "started" << YAML::Value << p.started;
  y << YAML::Key << "finished" << YAML::Value << p.finished;
  y << YAML::EndMap;
  return "# How this sweep.csv was made (fbosim); each point directory has its own record\n" +
         std::string(y.c_str()) + "\n";
}

std::string provenance_text(const config::ExperimentSpec& spec, const Provenance& p) {
  YAML::Emitter y;
  begin_record(y, p);
  y << YAML::Key << "seed" << YAML::Value << spec.seed;
  y << YAML::Key << "runs" << YAML::Value << spec.runs;
  y << YAML::Key << "threads" << YAML::Value << p.threads;
  y << YAML::Key << "dp" << YAML::Value << spec.is_private();
  y << YAML::Key << "delta" << YAML::Value << YAML::Load(delta_text(spec.delta()));
  // Where the delta came from, delta x N where it is per agent, and the warning of a run whose
  // delta x N exceeds 0.1 (issue 39; null where none).
  y << YAML::Key << "delta_rule" << YAML::Value
    << (spec.server.delta ? std::string("server.delta")
                          : std::string(config::kDeltaRuleNames.name(spec.server.delta_rule)));
  const std::optional<double> dn = spec.delta_times_agents();
  y << YAML::Key << "delta_times_n" << YAML::Value
    << (dn ? YAML::Load(delta_text(*dn)) : YAML::Node(YAML::NodeType::Null));
  const std::string warning = spec.delta_warning();
  y << YAML::Key << "delta_warning" << YAML::Value
    << (warning.empty() ? YAML::Node(YAML::NodeType::Null) : YAML::Node(warning));
  // Issue 41: the schedule and what its epsilon protects (absent under the papers' rounds).
  if (spec.schedule.kind != protocol::ScheduleKind::rounds) {
    y << YAML::Key << "schedule" << YAML::Value
      << std::string(protocol::kScheduleKindNames.name(spec.schedule.kind));
    y << YAML::Key << "epsilon_notion" << YAML::Value << spec.epsilon_notion();
    // A trust model's own charges (docs/TRUST.md "Under the asynchronous schedules").
    const systems::FtsDeConfig* c = systems::fts_de_config(spec.system.get());
    if (c && c->server && c->dp)
      if (const char* trust = server::async_trust_notion(c->mechanism.trust))
        y << YAML::Key << "trust_notion" << YAML::Value << trust;
  }
  y << YAML::Key << "accountant" << YAML::Value << spec.server.accountant;
  y << YAML::Key << "accountants" << YAML::Value << YAML::Flow << spec.server.accountants;
  // Accountants whose epsilon is an approximation, not a bound (their columns end in _approx).
  std::vector<std::string> approximate;
  for (const std::string& a : spec.server.accountants)
    if (!privacy::make_accountant(a)->is_bound()) approximate.push_back(a);
  y << YAML::Key << "approximate_accountants" << YAML::Value << YAML::Flow << approximate;
  if (!approximate.empty())
    y << YAML::Comment("not upper bounds: they can fall below the true epsilon");
  y << YAML::Key << "started" << YAML::Value << p.started;
  y << YAML::Key << "finished" << YAML::Value << p.finished;
  y << YAML::Key << "resumed_runs" << YAML::Value << p.resumed_runs;
  // Issue 39: a function passed to fbosim.run that cannot be imported again.
  if (const std::string why = datasets::python::unreproducible_reason(spec.objective.settings);
      !why.empty()) {
    y << YAML::Key << "reproducible_from_files" << YAML::Value << false;
    y << YAML::Key << "not_reproducible_because" << YAML::Value << why;
  }
  if (!p.algorithm_facts.empty()) {
    y << YAML::Key << "algorithm_facts" << YAML::Value << YAML::BeginMap;
    for (const auto& [name, value] : p.algorithm_facts)
      y << YAML::Key << name << YAML::Value << value;
    y << YAML::EndMap;
  }
  if (!p.data.empty()) {
    y << YAML::Key << "data" << YAML::Value << YAML::BeginSeq;
    for (const DataRecord& d : p.data)
      y << YAML::BeginMap << YAML::Key << "file" << YAML::Value << d.file << YAML::Key << "sha256"
        << YAML::Value << d.sha256 << YAML::Key << "check" << YAML::Value << d.check
        << YAML::EndMap;
    y << YAML::EndSeq;
  }
  y << YAML::EndMap;
  return "# How these results were made (fbosim; not a config: `fbosim run "
         "config.resolved.yaml` reproduces them)\n" +
         std::string(y.c_str()) + "\n";
}

}  // namespace fbosim::output

#include "sim/sweep/algorithm_grid.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "sim/config/config_tree.hpp"

namespace fbosim::sweep {

namespace {

// What a name of the DP-FTS-DE family fixes (Dai, Low & Jaillet 2021: FTS and DP-FTS have no
// distributed exploration, P = 1; the DP- names are the private ones).
struct Fixed {
  const char* dp;
  bool single_region;
};

const Fixed* fixed_by(const std::string& algorithm) {
  static const std::map<std::string, Fixed> table = {{"fts", {"false", true}},
                                                     {"fts_de", {"false", false}},
                                                     {"dp_fts", {"true", true}},
                                                     {"dp_fts_de", {"true", false}}};
  const auto it = table.find(algorithm);
  return it == table.end() ? nullptr : &it->second;
}

// Every scalar of a nested mapping, by dotted key.
void flatten(const YAML::Node& node, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (!node.IsMap()) {
    if (node.IsScalar()) out[prefix] = node.Scalar();
    return;
  }
  for (const auto& kv : node)
    flatten(kv.second, (prefix.empty() ? "" : prefix + ".") + kv.first.as<std::string>(), out);
}

std::string value_of(const config::SweepPoint& point, const std::string& key) {
  for (const auto& kv : point.values)
    if (kv.first == key) return kv.second;
  return "";
}

bool is_own(const config::SweepPoint& point, const std::string& key) {
  return std::any_of(point.values.begin(), point.values.end(),
                     [&](const auto& kv) { return kv.first == key; });
}

}  // namespace

AlgorithmGrid::AlgorithmGrid(const std::string& config_text, const std::string& source,
                             const std::vector<std::string>& overrides,
                             const config::SweepPlan& plan) {
  const std::vector<std::string> keys = plan.keys();
  active_ = std::find(keys.begin(), keys.end(), "algorithm") != keys.end();
  if (!active_) return;
  config::ConfigTree tree = config::ConfigTree::from_text(config_text, source);
  tree.remove("sweep");
  for (const std::string& o : overrides) tree.apply_override(o);
  flatten(tree.to_yaml(), "", given_);
}

std::vector<std::string> AlgorithmGrid::fixes(const config::SweepPoint& point,
                                              std::vector<std::string>& notes) const {
  std::vector<std::string> out;
  if (!active_) return out;
  const std::string algorithm = value_of(point, "algorithm");
  const Fixed* f = fixed_by(algorithm);
  if (!f) return out;
  const auto fix = [&](const std::string& key, const std::string& value, const char* why) {
    const auto it = given_.find(key);
    if (it == given_.end() || is_own(point, key) || it->second == value) return;
    out.push_back(key + "=" + value);
    notes.push_back(fmt::format("point {}: {}: {} (the config's {} contradicts algorithm {}, {})",
                                point.name, key, value, it->second, algorithm, why));
  };
  fix("server.dp", f->dp, f->dp[0] == 't' ? "which runs with DP" : "which runs without DP");
  if (f->single_region) fix("exploration.subregions", "1", "which has P = 1");
  return out;
}

}  // namespace fbosim::sweep

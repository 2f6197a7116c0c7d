#include "sim/sweep/algorithm_grid.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "algorithms/systems/algorithm_registry.hpp"
#include "sim/config/config_tree.hpp"

namespace fbosim::sweep {

namespace {

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
  // What the name fixes, from its registry entry (an unknown name is the loader's error).
  const protocol::AlgorithmEntry* entry = systems::algorithm_registry().find(algorithm);
  if (!entry) return out;
  for (const protocol::AlgorithmEntry::Fixed& f : entry->fixed) {
    const auto it = given_.find(f.path);
    if (it == given_.end() || is_own(point, f.path) || it->second == f.value) continue;
    out.push_back(f.path + "=" + f.value);
    notes.push_back(fmt::format("point {}: {}: {} (the config's {} contradicts algorithm {}, {})",
                                point.name, f.path, f.value, it->second, algorithm, f.why));
  }
  return out;
}

}  // namespace fbosim::sweep

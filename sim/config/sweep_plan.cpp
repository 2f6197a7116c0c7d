#include "sim/config/sweep_plan.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/config/config_reader.hpp"
#include "sim/config/yaml_scalar.hpp"
#include "core/cancellation.hpp"
#include "core/text.hpp"

namespace fbosim::config {

namespace {

// FNV-1a, 64 bits: a stable (platform-independent) hash for cut names.
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// A YAML value as the text `--set` parses back to the same value. yaml-cpp's emitter drops the
// quotes of a quoted scalar whenever the text can be written plain, which would turn the
// text "3" into the number 3: such a scalar keeps its quotes.
std::string yaml_text(const YAML::Node& node) {
  YAML::Emitter out;
  if (node.IsScalar() && node.Tag() == "!" && plain_type(node.Scalar()) != YamlType::string) {
    out << YAML::DoubleQuoted << node.Scalar();
  } else {
    out << YAML::Flow << node;
  }
  return out.c_str();
}

// The value a grid's YAML text stands for: numbers compare by value (1, 1.0, 1e0 and 01 are one
// point, which would otherwise run twice under two names), anything else by its YAML text.
std::string value_key(const std::string& text) {
  YAML::Node node;
  try {
    node = YAML::Load(text);
  } catch (const YAML::Exception&) {
    return "text:" + text;
  }
  if (!node.IsScalar()) return "yaml:" + yaml_text(node);
  const std::string& scalar = node.Scalar();
  try {
    std::size_t used = 0;
    const double v = std::stod(scalar, &used);
    if (used == scalar.size()) return fmt::format("number:{}", v == 0 ? 0.0 : v);
  } catch (const std::exception&) {
  }
  return "scalar:" + scalar;
}

void check_unique_values(const SweepGrid& g, const std::string& where) {
  if (g.values.empty())
    throw std::invalid_argument(where + ": grid '" + shorten(g.key) + "' has no values");
  std::map<std::string, std::string> seen;  // value -> the text that gave it first
  for (const std::string& v : g.values) {
    core::throw_if_cancelled();  // a grid may have many values, each parsed as YAML
    if (v.empty())
      throw std::invalid_argument(where + ": grid '" + shorten(g.key) + "' has an empty value");
    const auto [it, fresh] = seen.emplace(value_key(v), v);
    if (!fresh)
      throw std::invalid_argument(
          where + ": grid '" + shorten(g.key) + "' repeats the value '" + shorten(v) + "'" +
          (it->second == v ? "" : " (equal to '" + shorten(it->second) + "')"));
  }
}

}  // namespace

std::vector<std::string> SweepPoint::overrides() const {
  std::vector<std::string> out;
  for (const auto& [key, value] : values) out.push_back(key + "=" + value);
  return out;
}

SweepGrid parse_grid(const std::string& arg) {
  const std::string where = "--grid " + shorten(arg);
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 || core::trim(arg.substr(0, eq)).empty())
    throw std::invalid_argument(where + ": expected KEY=V1,V2,...");
  SweepGrid g{core::trim(arg.substr(0, eq)), {}};
  if (("." + g.key + ".").find("..") != std::string::npos)
    throw std::invalid_argument(where + ": the key '" + g.key +
                                "' has an empty part (a dotted key is a path: names between the "
                                "dots)");
  // Split at the commas outside [...], {...} and quotes (a value is YAML text).
  const std::string values = arg.substr(eq + 1);
  std::string current;
  int depth = 0;
  char quote = 0;   // the quote open, if any
  char before = 0;  // the last character of current but blanks (0: none)
  for (std::size_t i = 0; i < values.size(); ++i) {
    const char c = values[i];
    if (quote) {
      if (c == '\\' && quote == '"' && i + 1 < values.size()) {
        current += c;
        current += values[++i];
        continue;
      }
      if (c == quote) quote = 0;
      current += c;
      before = c;
      continue;
    }
    // A quote opens a scalar only where one may start: first in a value or after [ { , :.
    if ((c == '"' || c == '\'') &&
        (before == 0 || std::string("[{,:").find(before) != std::string::npos)) {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth < 0) {
      throw std::invalid_argument(where + ": a '" + std::string(1, c) +
                                  "' without its opening bracket");
    }
    if (c == ',' && depth == 0) {
      g.values.push_back(core::trim(current));
      current.clear();
      before = 0;
    } else {
      current += c;
      if (c != ' ' && c != '\t') before = c;
    }
  }
  if (quote || depth > 0)
    throw std::invalid_argument(where + ": an unclosed " + (quote ? "quote" : "bracket"));
  g.values.push_back(core::trim(current));
  check_unique_values(g, where);
  return g;
}

ShardSpec parse_shard(const std::string& text) {
  ShardSpec s;
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used = 0;
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("trailing text");
    const std::string count = text.substr(slash + 1);
    s.count = std::stoi(count, &used);
    if (used != count.size()) throw std::invalid_argument("trailing text");
  } catch (const std::exception&) {
    throw std::invalid_argument("--shard " + text + ": expected I/K (1-based, e.g. 2/8)");
  }
  if (s.count < 1 || s.index < 1 || s.index > s.count)
    throw std::invalid_argument("--shard " + text + ": need 1 <= I <= K");
  return s;
}

std::vector<SweepGrid> grids_from_yaml(const YAML::Node& root, const std::string& source) {
  std::vector<SweepGrid> grids;
  if (!root.IsMap()) return grids;
  // Grids in the order written. A grid's key may be dotted (`sweep: {server.z: [1, 2]}`, the
  // spelling of --set and --grid), nested (`sweep: {server: {z: [1, 2]}}`) or a dotted key of
  // the top level (`sweep.server.z: [1, 2]`): all three sweep server.z.
  std::map<std::string, YAML::Mark> seen;
  std::function<void(const std::string&, const YAML::Node&, const YAML::Mark&)> add =
      [&](const std::string& key, const YAML::Node& value, const YAML::Mark& mark) {
        if (value.IsMap()) {
          for (const auto& kv : value)
            if (kv.first.IsScalar()) add(key + "." + kv.first.Scalar(), kv.second, kv.first.Mark());
          return;
        }
        SweepGrid g{key.substr(1), {}};
        const std::string where = source + ": sweep." + g.key;
        if (const auto [it, fresh] = seen.emplace(g.key, mark); !fresh)
          throw std::invalid_argument(fmt::format("{}: swept twice (line {} and line {})", where,
                                                  it->second.line + 1, mark.line + 1));
        if (value.IsSequence()) {
          for (const auto& v : value) g.values.push_back(yaml_text(v));
        } else if (value.IsScalar()) {
          g.values.push_back(yaml_text(value));
        } else {
          throw std::invalid_argument(where + ": must be a list of values, got '" +
                                      yaml_text(value) + "'");
        }
        check_unique_values(g, where);
        grids.push_back(std::move(g));
      };
  for (const auto& kv : root) {
    if (!kv.first.IsScalar()) continue;
    const std::string& key = kv.first.Scalar();
    if (key == "sweep") {
      if (!kv.second.IsMap())
        throw std::invalid_argument(source + ": sweep: must be a mapping {key: [values]}, got '" +
                                    yaml_text(kv.second) + "'");
      add("", kv.second, kv.first.Mark());
    } else if (key.rfind("sweep.", 0) == 0) {
      add(key.substr(5), kv.second, kv.first.Mark());
    }
  }
  return grids;
}

std::vector<SweepGrid> combine_grids(std::vector<SweepGrid> yaml,
                                     const std::vector<SweepGrid>& cli) {
  for (const SweepGrid& g : cli) {
    bool replaced = false;
    for (SweepGrid& y : yaml) {
      if (y.key == g.key) {
        y = g;
        replaced = true;
      }
    }
    if (!replaced) yaml.push_back(g);
  }
  return yaml;
}

std::string point_name(const std::vector<std::pair<std::string, std::string>>& values) {
  if (values.empty()) return "base";
  std::string full;
  for (const auto& [key, value] : values) full += (full.empty() ? "" : ",") + key + "=" + value;
  std::string name;
  for (char c : full) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '=' || c == ',' || c == '+' || c == '-';
    name += ok ? c : '_';
  }
  constexpr std::size_t kMax = 160;
  if (name.size() > kMax) name = fmt::format("{}~{:016x}", name.substr(0, kMax), fnv1a(full));
  return name;
}

SweepPlan::SweepPlan(std::vector<SweepGrid> grids) : grids_(std::move(grids)) {
  std::set<std::string> keys;
  for (const SweepGrid& g : grids_) {
    if (!keys.insert(g.key).second)
      throw std::invalid_argument("sweep: the key '" + g.key + "' is swept twice");
    check_unique_values(g, "sweep");
  }
  // A point is a directory and a run of the experiment: a grid of more than kMaxPoints is a
  // mistake (and would overflow the point index), refused before anything is built.
  std::size_t total = 1;
  std::string sizes;
  for (const SweepGrid& g : grids_) {
    sizes += fmt::format("{}{} ({} values)", sizes.empty() ? "" : " x ", g.key, g.values.size());
    total = g.values.size() > kMaxPoints / total ? kMaxPoints + 1 : total * g.values.size();
  }
  if (total > kMaxPoints)
    throw std::invalid_argument(fmt::format(
        "sweep: {} make more than {} points; split it into several sweeps", sizes, kMaxPoints));
  // Mixed-radix counting, the last grid fastest: point order = nested loops in grid order.
  std::vector<std::size_t> digit(grids_.size(), 0);
  std::unordered_map<std::string, int> names;
  for (std::size_t i = 0; i < total; ++i) {
    core::throw_if_cancelled();  // Ctrl-C while a large grid is planned
    SweepPoint p;
    p.index = static_cast<int>(i);
    for (std::size_t k = 0; k < grids_.size(); ++k)
      p.values.emplace_back(grids_[k].key, grids_[k].values[digit[k]]);
    p.name = point_name(p.values);
    if (const auto [it, fresh] = names.emplace(p.name, p.index); !fresh)
      throw std::invalid_argument(fmt::format(
          "sweep: points {} and {} have the same directory name '{}' once sanitised; use "
          "values that differ in [A-Za-z0-9._+-]",
          it->second, p.index, p.name));
    points_.push_back(std::move(p));
    for (std::size_t k = grids_.size(); k-- > 0;) {
      if (++digit[k] < grids_[k].values.size()) break;
      digit[k] = 0;
    }
  }
}

std::vector<std::string> SweepPlan::keys() const {
  std::vector<std::string> out;
  for (const SweepGrid& g : grids_) out.push_back(g.key);
  return out;
}

std::vector<SweepPoint> SweepPlan::shard(const ShardSpec& shard) const {
  std::vector<SweepPoint> out;
  for (const SweepPoint& p : points_)
    if (shard.contains(p.index)) out.push_back(p);
  return out;
}

}  // namespace fbosim::config

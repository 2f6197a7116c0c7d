#pragma once
// The points of a parameter sweep: the cartesian product of grids over config keys, each point
// a list of `key=value` overrides with a stable, filesystem-safe directory name, and the
// deterministic slices (shards) that spread a sweep over a cluster (docs/SWEEPS.md).
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace fbosim::config {

/// One swept key and its values, each value as YAML text (what `--set key=value` takes).
struct SweepGrid {
  std::string key;
  std::vector<std::string> values;
};

/// One point of the grid. index: position in grid order (the first grid varies slowest).
struct SweepPoint {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> values;  ///< (key, YAML text) per grid
  std::string name;                                         ///< the point's directory name

  /// The overrides in `--set` form ("key=value"), in grid order.
  std::vector<std::string> overrides() const;
};

/// Slice `index` (1-based) of `count`: point i belongs to slice (i mod count) + 1.
struct ShardSpec {
  int index = 1;
  int count = 1;
  bool contains(int point) const { return point % count + 1 == index; }
};

/// "KEY=V1,V2,..." -> grid. Commas inside [...] or {...} do not split (a value may be a YAML
/// list). Throws std::invalid_argument naming the argument when malformed or a value repeats.
SweepGrid parse_grid(const std::string& arg);
/// "I/K" with 1 <= I <= K -> shard; throws std::invalid_argument naming the bad text.
ShardSpec parse_shard(const std::string& text);
/// The grids of a config's `sweep:` section ({key: [values]} or {key: value}), in the order
/// written; a key may be dotted or nested (`{server: {z: [1, 2]}}` sweeps server.z), and a
/// top-level `sweep.KEY: [values]` is a grid too; none if absent. Throws
/// std::invalid_argument naming `source` and the key when malformed or a key is swept twice.
std::vector<SweepGrid> grids_from_yaml(const YAML::Node& root, const std::string& source);
/// YAML grids, with the command-line grids replacing those of the same key in place and the
/// other command-line grids appended in the order given.
std::vector<SweepGrid> combine_grids(std::vector<SweepGrid> yaml,
                                     const std::vector<SweepGrid>& cli);

/// The directory name of a point: "k1=v1,k2=v2" with every character outside
/// [A-Za-z0-9._=,+-] replaced by '_'; names over 160 characters are cut and end in "~" and
/// 16 hex digits of a hash of the full name, so they stay unique and within NAME_MAX.
std::string point_name(const std::vector<std::pair<std::string, std::string>>& values);

class SweepPlan {
 public:
  /// The most points a plan may have (each is a directory of results).
  static constexpr std::size_t kMaxPoints = 1000000;

  /// The cartesian product of `grids` (a sweep without grids has the single point "base").
  /// Throws std::invalid_argument if a key repeats, a grid is empty, two names collide or the
  /// grids make more than kMaxPoints points; core::Cancelled after Ctrl-C/SIGTERM.
  explicit SweepPlan(std::vector<SweepGrid> grids);

  const std::vector<SweepGrid>& grids() const { return grids_; }
  std::vector<std::string> keys() const;
  const std::vector<SweepPoint>& points() const { return points_; }
  /// The points of one shard, in grid order.
  std::vector<SweepPoint> shard(const ShardSpec& shard) const;

 private:
  std::vector<SweepGrid> grids_;
  std::vector<SweepPoint> points_;
};

}  // namespace fbosim::config

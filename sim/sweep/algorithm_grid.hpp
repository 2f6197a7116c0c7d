#pragma once
// A sweep whose grid varies `algorithm` (issue 28: `--grid algorithm=ts,fts,dp_fts_de`). The
// config is then the algorithms' shared base, and each point runs its algorithm as its paper
// defines it: the keys its registry entry's `fixed` lists (within the DP-FTS-DE family the name
// fixes `server.dp` (fts, fts_de: false; dp_fts, dp_fts_de: true) and P = 1 for fts and dp_fts),
// so a value of the config (or of a
// --set) that contradicts the point's name is replaced at that point, with a note on stderr
// naming the point, the key and both values (a single experiment refuses such a config; a point's
// own grid values are never replaced: a grid that contradicts itself is an error). A key that
// the point's algorithm does not read at all (e.g. `exploration.subregions` at a `fts_target`
// point) stays an error naming the point, the key and the algorithms that read it.
#include <map>
#include <string>
#include <vector>

#include "sim/config/sweep_plan.hpp"

namespace fbosim::sweep {

class AlgorithmGrid {
 public:
  /// The keys the config text and the --set overrides give (none when the plan does not vary
  /// `algorithm`).
  AlgorithmGrid(const std::string& config_text, const std::string& source,
                const std::vector<std::string>& overrides, const config::SweepPlan& plan);
  /// The overrides that make `point` run its algorithm as named (applied after the --set
  /// overrides, before the point's values); a note per replaced value is appended to `notes`.
  std::vector<std::string> fixes(const config::SweepPoint& point,
                                 std::vector<std::string>& notes) const;

 private:
  bool active_ = false;
  std::map<std::string, std::string> given_;  ///< dotted key -> the YAML text given
};

}  // namespace fbosim::sweep

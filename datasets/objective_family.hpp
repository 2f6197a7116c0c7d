#pragma once
// A family of per-agent objectives (one experiment's `objective.family`). Real-world families
// load and validate their data once, in their constructor, so that a missing or malformed file
// is an error before any run starts; make() then draws the agents' objectives of one run.
#include <cstdint>
#include <memory>
#include <vector>

#include "datasets/objective.hpp"
#include "core/rng.hpp"

namespace fbosim::datasets {

class ObjectiveFamily {
 public:
  virtual ~ObjectiveFamily() = default;
  /// The largest number of agents the family supports (e.g. 29 landmine fields); 0 = any.
  virtual int max_agents() const { return 0; }
  /// Whether make() draws other objectives in other runs (the synthetic families); real data
  /// gives every run the same objectives.
  virtual bool varies_by_run() const { return true; }
  /// Each of the first `agents` agents' number of training records, the data one evaluation
  /// trains on (landmine: the field's training half; emnist: the writer's training images;
  /// activity: the subject's training rows), for durations that grow with it
  /// (timing.duration.scale_by: records, docs/TIME.md). Empty: the family has no records
  /// (synthetic functions, tables, user programs).
  virtual std::vector<std::int64_t> records(int agents) const {
    (void)agents;
    return {};
  }
  /// One objective per agent for one run. Every draw comes from named streams of rng
  /// (keyed by agent), so it does not depend on any other setting of the experiment.
  virtual std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                             const core::RngFactory& rng) const = 0;
};

}  // namespace fbosim::datasets

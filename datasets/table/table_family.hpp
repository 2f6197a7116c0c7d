#pragma once
// The `table` family (issue 25): a user's objective given as a table of values, one set of
// rows per agent (tabular HPO benchmarks are distributed this way: HPO-B, FedHPO-Bench). The
// domain is the table's finite set of points; agent n's query at a point returns its row's y
// (the observation: the table's noise, if any, is already in it) and f (the noise-free value,
// y without an f column); regret is taken against agent n's largest f. Deterministic: no
// stream is drawn.
#include <memory>
#include <string>
#include <vector>

#include "datasets/objective_family.hpp"
#include "datasets/objective_family_entry.hpp"
#include "datasets/table/value_table.hpp"

namespace fbosim::datasets::table {

struct TableSpec {
  std::string path;  ///< objective.table: the CSV file
};

class TableFamily final : public ObjectiveFamily {
 public:
  /// Reads and checks the table (ValueTable); throws std::runtime_error naming the file.
  explicit TableFamily(const TableSpec& spec);
  int max_agents() const override { return table_->agents(); }
  bool varies_by_run() const override { return false; }
  /// Throws std::invalid_argument unless `agents` is the table's number of agents.
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  std::shared_ptr<const ValueTable> table_;
  core::Domain domain_;
};

const schema::Group<TableSpec>& table_keys();
void register_table_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets::table

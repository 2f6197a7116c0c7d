#include "datasets/table/table_family.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schema/group.hpp"

namespace fbosim::datasets::table {

namespace {

class TableObjective final : public Objective {
 public:
  TableObjective(std::shared_ptr<const ValueTable> table, const core::Domain& domain, int agent)
      : table_(std::move(table)), domain_(domain), agent_(agent) {
    optimum_ = table_->f(agent_, 0);
    for (Eigen::Index i = 1; i < table_->points().rows(); ++i)
      optimum_ = std::max(optimum_, table_->f(agent_, i));
  }
  const core::Domain& domain() const override { return domain_; }
  double evaluate(const Eigen::VectorXd& x) const override { return table_->f(agent_, row(x)); }
  double observe(const Eigen::VectorXd& x, core::RngStream&) const override {
    return table_->y(agent_, row(x));
  }
  std::optional<double> optimum() const override { return optimum_; }
  Evaluation query(const Eigen::VectorXd& x, core::RngStream&) const override {
    const Eigen::Index i = row(x);
    return {table_->y(agent_, i), table_->f(agent_, i)};
  }

 private:
  // The agents query points of the domain only; anything else is a programming error.
  Eigen::Index row(const Eigen::VectorXd& x) const {
    const Eigen::Index i = table_->find(x);
    if (i < 0)
      throw std::logic_error(fmt::format("{}: agent {} queried [{}], which is not in the table",
                                         table_->path(), agent_,
                                         fmt::join(x.data(), x.data() + x.size(), ", ")));
    return i;
  }
  std::shared_ptr<const ValueTable> table_;
  const core::Domain& domain_;
  int agent_;
  double optimum_;
};

}  // namespace

TableFamily::TableFamily(const TableSpec& spec)
    : table_(std::make_shared<const ValueTable>(spec.path)) {
  domain_.dim = table_->dim();
  domain_.grid = table_->points();
}

std::vector<std::shared_ptr<const Objective>> TableFamily::make(int agents,
                                                                const core::RngFactory&) const {
  if (agents != table_->agents())
    throw std::invalid_argument(fmt::format(
        "agents.count: {} agents, but the table {} has rows for agents 0 .. {} (agents.count "
        "must equal the table's agents)",
        agents, table_->path(), table_->agents() - 1));
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<const TableObjective>(table_, domain_, n));
  return out;
}

const schema::Group<TableSpec>& table_keys() {
  static const auto g =
      schema::Group<TableSpec>{}
          .text("objective.table", &TableSpec::path,
                "`table`: the CSV file of values (columns agent, x0 .. x{d-1} in [0, 1], y and "
                "optionally f; every agent on the same points), relative to the working "
                "directory")
          .note("none: required")
          .check([](const TableSpec& s, schema::Problems& p) {
            if (s.path.empty()) p.push_back({"objective.table", "must name a CSV file"});
          });
  return g;
}

void register_table_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<TableSpec>(
      "table",
      "values from a CSV file, one set of rows per agent (tabular benchmarks); the domain is "
      "the table's points",
      table_keys(), TableSpec{},
      [](const TableSpec& s, const std::string&) { return std::make_unique<TableFamily>(s); },
      // The table is read when the family is built; until then its size is unknown.
      [](const TableSpec&) {
        return ObjectiveShape{core::DomainKind::finite_set, 0, 0, "objective.table"};
      });
  e.optimum_known = true;
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets::table

#include "datasets/command/command_family.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "datasets/query_at_objective.hpp"
#include "core/cancellation.hpp"
#include "schema/group.hpp"

namespace fbosim::datasets::command {

namespace {

using json = nlohmann::json;

// A line of the program's output as quoted in a message: at most 200 characters.
std::string shown(const std::string& line) {
  return line.size() > 200 ? fmt::format("{}... ({} characters)", line.substr(0, 197), line.size())
                           : line;
}

class CommandObjective final : public QueryAtObjective {
 public:
  CommandObjective(std::shared_ptr<WorkerPool> pool, const CommandSpec& spec, int agent)
      : pool_(std::move(pool)), timeout_(spec.timeout), agent_(agent) {
    domain_.dim = spec.dimension;
  }
  const core::Domain& domain() const override { return domain_; }
  Evaluation query_at(const Eigen::VectorXd& x, core::RngStream& rng,
                      const QueryContext& where) const override;

 private:
  std::shared_ptr<WorkerPool> pool_;
  std::chrono::duration<double> timeout_;
  int agent_;
  core::Domain domain_;
};

Objective::Evaluation CommandObjective::query_at(const Eigen::VectorXd& x, core::RngStream& rng,
                                                 const QueryContext& where) const {
  const std::uint64_t seed = rng.engine()();
  const std::vector<double> xs(x.data(), x.data() + x.size());
  const auto fail = [&](const std::string& what, const std::string& tail) {
    throw std::runtime_error(
        fmt::format("objective.command '{}': agent {}, run {}, round {}, x = [{}]: {}{}",
                    pool_->command(), agent_, where.run, where.round, fmt::join(xs, ", "), what,
                    tail.empty() ? std::string(" (nothing on its stderr)")
                                 : "; the end of its stderr:\n" + tail));
  };
  std::unique_ptr<WorkerProcess> worker = pool_->acquire();
  const long long id = worker->next_query_id();
  const json request = {{"id", id},         {"agent", agent_},
                        {"run", where.run}, {"round", where.round},
                        {"seed", seed},     {"x", xs}};
  std::string answer;
  using S = WorkerProcess::Status;
  const S status = worker->exchange(request.dump() + "\n", answer, timeout_);
  if (status != S::ok) {
    const std::string tail = worker->stderr_tail();
    const std::string how = worker->exit_text();
    worker.reset();
    pool_->release(nullptr);
    switch (status) {
      case S::cancelled:
        throw core::Cancelled();
      case S::timed_out:
        fail(fmt::format("no answer within objective.timeout = {:g} s (the program was killed)",
                         timeout_.count()),
             tail);
        break;
      case S::too_long:
        fail("an answer line longer than 1 MiB (the program was killed)", tail);
        break;
      case S::unsolicited:
        fail(fmt::format("the program wrote '{}' before it read this query (id {}): output that "
                         "answers no query ({}); a program writes exactly one line per query, "
                         "after reading it, echoing its \"id\" (the program was killed)",
                         shown(answer), id,
                         id == 1 ? "written before its first query"
                                 : "a second answer to an earlier query, or output before it"),
             tail);
        break;
      case S::extra:
        fail(fmt::format("the program wrote a second line '{}' after its answer to this query "
                         "(id {}); a program writes exactly one line per query (the program was "
                         "killed)",
                         shown(answer), id),
             tail);
        break;
      default:
        fail("the program " + how + " before answering", tail);
    }
  }
  const auto malformed = [&](const std::string& why) {
    const std::string tail = worker->stderr_tail();
    worker.reset();  // it may be out of step with the protocol: not reused
    pool_->release(nullptr);
    fail(fmt::format("malformed answer '{}' to query id {}: {} (expected one line {{\"id\": {}, "
                     "\"y\": number}} or {{\"id\": {}, \"y\": number, \"f\": number}})",
                     shown(answer), id, why, id, id),
         tail);
  };
  const json a = json::parse(answer, nullptr, false);
  if (a.is_discarded()) malformed("not valid JSON (NaN and Infinity are not JSON numbers)");
  if (!a.is_object()) malformed("not a JSON object");
  for (const auto& [key, value] : a.items())
    if (key != "y" && key != "f" && key != "id") malformed("unknown key '" + key + "'");
  // The id binds the answer to its query; an answer without one is taken as this query's
  // (exchange() has checked it is the one line that followed the query).
  if (const auto it = a.find("id"); it != a.end()) {
    if (!it->is_number_integer()) malformed("\"id\" is not an integer");
    if (it->get<long long>() != id)
      malformed(fmt::format("it answers query id {}, not this query (id {})", it->dump(), id));
  }
  Evaluation e{};
  const auto number = [&](const char* key, double& out) {
    const auto it = a.find(key);
    if (it == a.end()) return false;
    if (!it->is_number()) malformed(std::string("\"") + key + "\" is not a number");
    out = it->get<double>();
    if (!std::isfinite(out)) malformed(std::string("\"") + key + "\" is not finite");
    return true;
  };
  if (!number("y", e.y)) malformed("no \"y\"");
  if (!number("f", e.f)) e.f = e.y;
  pool_->release(std::move(worker));
  return e;
}

}  // namespace

CommandFamily::CommandFamily(const CommandSpec& spec)
    : spec_(spec), pool_(std::make_shared<WorkerPool>(spec.command, spec.workers)) {}

std::vector<std::shared_ptr<const Objective>> CommandFamily::make(int agents,
                                                                  const core::RngFactory&) const {
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<const CommandObjective>(pool_, spec_, n));
  return out;
}

const schema::Group<CommandSpec>& command_keys() {
  using S = CommandSpec;
  using schema::Range;
  static const auto g =
      schema::Group<S>{}
          .text("objective.command", &S::command,
                "`command`: the program that evaluates the queries, run by /bin/sh -c (one JSON "
                "line per query on its stdin, one back: docs/OBJECTIVES.md)")
          .note("none: required")
          .integer("objective.inputs", &S::dimension, Range::closed(1, 1000),
                   "`command`, `python`: the input dimension d (queries lie in the unit box "
                   "[0,1]^d; the user's code maps them to its own ranges)")
          .real("objective.timeout", &S::timeout, Range::closed(0.001, 1e7),
                "`command`: seconds one evaluation may take before the program is killed and "
                "the run fails")
          .integer("objective.workers", &S::workers, Range::closed(0, 4096),
                   "`command`: the most processes running the program at once (0: one per "
                   "agent evaluated in parallel, at most the threads)")
          .check([](const S& s, schema::Problems& p) {
            if (s.command.empty()) p.push_back({"objective.command", "must name a program"});
          });
  return g;
}

void register_command_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<CommandSpec>(
      "command",
      "an external program evaluates each query (JSON lines on its stdin and stdout); the "
      "domain is the box [0,1]^inputs",
      command_keys(), CommandSpec{},
      [](const CommandSpec& s, const std::string&) { return std::make_unique<CommandFamily>(s); },
      [](const CommandSpec& s) {
        return ObjectiveShape{core::DomainKind::box, s.dimension, 0, "objective.inputs"};
      });
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets::command

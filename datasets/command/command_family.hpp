#pragma once
// The `command` family (issue 25): an external program evaluates the queries, in any language.
// Protocol (one JSON object per line): fbosim writes
//   {"id": i, "agent": n, "run": r, "round": t, "seed": s, "x": [x0, ..., x{d-1}]}
// to the program's stdin and reads exactly one line back from its stdout: {"id": i, "y": value}
// or {"id": i, "y": value, "f": noise-free value} (f defaults to y). The id (1, 2, ... within one
// process) binds the answer to its query: a wrong id is an error; an answer without one is
// accepted as the query's only when it is the one line written after the query was read
// (issue 39: unsolicited or extra lines shifted every later answer to the wrong query). x lies in
// the unit box [0,1]^d (the program maps it to its own ranges); seed is drawn from the agent's
// noise stream of that round, so that a program that draws its randomness from it is deterministic
// for any thread count. The program serves queries until its stdin closes; it must not answer from
// state kept between queries (different agents' queries reach the same process). Anything else it
// wants to say goes to stderr, whose tail is quoted when it fails.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "datasets/command/worker_pool.hpp"
#include "datasets/objective_family.hpp"
#include "datasets/objective_family_entry.hpp"

namespace fbosim::datasets::command {

struct CommandSpec {
  std::string command;   ///< objective.command: run by /bin/sh -c
  int dimension = 1;     ///< objective.inputs: d of the box [0,1]^d
  double timeout = 600;  ///< objective.timeout: seconds one evaluation may take
  int workers = 0;       ///< objective.workers: processes at most (0: one per parallel agent)
};

class CommandFamily final : public ObjectiveFamily {
 public:
  explicit CommandFamily(const CommandSpec& spec);
  bool varies_by_run() const override { return false; }
  std::vector<std::shared_ptr<const Objective>> make(int agents,
                                                     const core::RngFactory& rng) const override;

 private:
  CommandSpec spec_;
  std::shared_ptr<WorkerPool> pool_;
};

const schema::Group<CommandSpec>& command_keys();
void register_command_family(schema::Registry<ObjectiveFamilyEntry>& registry);

}  // namespace fbosim::datasets::command

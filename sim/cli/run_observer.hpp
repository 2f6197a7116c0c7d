#pragma once
// What `fbosim run` calls after every round of every run (run::RunOptions::on_round). fbosim's
// own definition (run_observer.cpp) observes nothing. It is a link seam: the test program
// fbosim_interrupting (tests/CMakeLists.txt) is fbosim linked with
// tests/sim/cli/interrupting_observer.cpp in its place, which sends the process a real SIGINT
// at a chosen run, so that the CLI tests interrupt a run at a deterministic point while the
// shipped program has no test hook at all.
#include <functional>

namespace fbosim::cli {

/// (run, round, rounds), as RunOptions::on_round; empty for no observer.
std::function<void(int, int, int)> run_observer();

}  // namespace fbosim::cli

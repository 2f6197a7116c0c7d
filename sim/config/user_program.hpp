#pragma once
// A config is code (issue 39): a `command` objective runs a program and a `python` objective
// imports a module from the working directory. fbosim says on stderr what will run before it
// runs, and runs what a config FILE names only with the user's consent: `--allow-exec` (run,
// sweep, audit, calibrate-clip), `allow_exec=True` (Python's fbosim.run and fbosim.sweep) or
// FBOSIM_ALLOW_EXEC=1 in the environment (sweeps on Slurm, scripts). A program
// given on the command line itself (--set objective.command=..., --grid) needs no consent: the
// user wrote it (docs/USER_GUIDE.md, "A config is code").
#include <optional>
#include <string>
#include <vector>

#include "sim/config/experiment_spec.hpp"

namespace fbosim::config {

/// One program or module that an objective runs: the key that names it and its value.
struct UserProgram {
  std::string key;         ///< objective.command or objective.callable
  std::string value;       ///< the command line, or "module:function"
  bool from_file = false;  ///< named by the config file (not by a --set or --grid)
};

/// The program the objective of `spec` runs, if any (families command and python); from the
/// file unless one of `overrides` ("KEY=VALUE", as --set) sets its key.
std::optional<UserProgram> objective_program(const config::ExperimentSpec& spec,
                                             const std::vector<std::string>& overrides);

/// Prints what each program does on stderr ("fbosim: objective.command (from ...) runs ...");
/// throws config::ConfigError naming `config_path`, the key and what would run when one comes
/// from the file and neither `allow_exec` nor FBOSIM_ALLOW_EXEC=1 consents.
void check_user_programs(const std::vector<UserProgram>& programs, const std::string& config_path,
                         bool allow_exec);

}  // namespace fbosim::config

#include "sim/config/user_program.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "core/text.hpp"
#include "datasets/command/command_family.hpp"
#include "datasets/python/python_family.hpp"
#include "sim/config/config_reader.hpp"

namespace fbosim::config {

namespace {

bool set_on_command_line(const std::string& key, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides)
    if (core::trim(std::string_view(o).substr(0, o.find('='))) == key) return true;
  return false;
}

std::string working_directory() {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  return ec ? std::string("the working directory") : cwd.string();
}

// What the program does, for the notice and the error.
std::string what_runs(const UserProgram& p) {
  if (p.key == "objective.command")
    return fmt::format("runs the program `{}` (by /bin/sh -c, in {})", p.value,
                       working_directory());
  const std::string module = p.value.substr(0, p.value.find(':'));
  return fmt::format("imports the Python module '{}' ({} first on sys.path) and calls {}", module,
                     working_directory(), p.value);
}

bool allowed_by_environment() {
  const char* v = std::getenv("FBOSIM_ALLOW_EXEC");
  return v && std::string(v) == "1";
}

}  // namespace

std::optional<UserProgram> objective_program(const config::ExperimentSpec& spec,
                                             const std::vector<std::string>& overrides) {
  const schema::Options& s = spec.objective.settings;
  UserProgram p;
  if (s.holds<datasets::command::CommandSpec>()) {
    p.key = "objective.command";
    p.value = s.as<datasets::command::CommandSpec>().command;
  } else if (s.holds<datasets::python::PythonSpec>()) {
    p.key = "objective.callable";
    p.value = s.as<datasets::python::PythonSpec>().callable;
  } else {
    return std::nullopt;
  }
  p.from_file = !set_on_command_line(p.key, overrides);
  return p;
}

void check_user_programs(const std::vector<UserProgram>& programs, const std::string& config_path,
                         bool allow_exec) {
  const bool consent = allow_exec || allowed_by_environment();
  for (const UserProgram& p : programs) {
    if (p.from_file && !consent)
      throw config::ConfigError(fmt::format(
          "{}: {}: this config {}. A config is code: fbosim runs a program or module named in a "
          "config file only when told to, so read the config, then add --allow-exec "
          "(allow_exec=True "
          "in Python's fbosim.run and fbosim.sweep; or set FBOSIM_ALLOW_EXEC=1 in the "
          "environment, e.g. for sweeps on Slurm), or give it on the "
          "command line (--set {}=...) (docs/USER_GUIDE.md, \"A config is code\")",
          config_path, p.key, what_runs(p), p.key));
    const std::string source =
        p.from_file ? "the config file " + config_path : std::string("the command line");
    std::fprintf(stderr, "fbosim: %s (from %s) %s\n", p.key.c_str(), source.c_str(),
                 what_runs(p).c_str());
  }
}

}  // namespace fbosim::config

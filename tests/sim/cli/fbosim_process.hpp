#pragma once
// Runs the fbosim binary (FBOSIM_BINARY) as a user would, for the CLI tests.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fbosim_test {

struct Output {
  int status;
  std::string text;  ///< stdout and stderr (not a terminal)
};

inline Output fbosim_with_env(const std::string& env, const std::string& args,
                              int timeout_seconds = 0) {
  const std::string cmd =
      (timeout_seconds > 0 ? "timeout " + std::to_string(timeout_seconds) + " " : "") +
      (env.empty() ? "" : "env " + env + " ") + std::string(FBOSIM_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

inline Output fbosim(const std::string& args) { return fbosim_with_env("", args); }

/// `fbosim args` run by the test program fbosim_interrupting, which sends itself SIGINT at the
/// first round of the first run it computes after `runs` computed runs (as Ctrl-C then would;
/// tests/sim/cli/interrupting_observer.cpp).
inline Output fbosim_stopped_after(int runs, const std::string& args) {
  const std::string cmd = "env FBOSIM_TEST_STOP_AFTER_RUNS=" + std::to_string(runs) + " " +
                          std::string(FBOSIM_INTERRUPTING_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe)) out += buf.data();
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

/// Writes `text` to a file of that name in the temporary directory; returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace fbosim_test

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

inline Output fbosim_with_env(const std::string& env, const std::string& args) {
  const std::string cmd =
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

/// Writes `text` to a file of that name in the temporary directory; returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace fbosim_test

// Run checkpoints are trusted only when they verify (issue #24, section 3): the format
// version, the length and SHA-256 of the content, the run index and the key (build and
// config) they were made for; every size is checked before it is allocated.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/sha256.hpp"
#include "sim/run/run_checkpoint.hpp"

using namespace fbosim::run;
namespace fs = std::filesystem;

namespace {
RunResult sample(int run) {
  RunResult r;
  r.run = run;
  r.dim = 1;
  r.trace_csv = fmt::format("{},0,0,0.25,1.5,1.4,1.4,0.1,init\n", run);
  r.server_columns = {"received", "selected", "clipped", "noise_std"};
  r.server.push_back({0, 10, {"6", "3", "1", "0.0333"}, 0.125, {}});
  r.best_f = Eigen::MatrixXd::Constant(2, 2, 1.4);
  r.regret = Eigen::MatrixXd::Constant(2, 2, 0.1);
  r.epsilon = {0, 0.125};
  r.final_epsilon = 0.125;
  r.round_seconds = {0.01, 0.02};
  r.agent_columns = {"epsilon", "epsilon_broadcast"};
  r.agents_csv = fmt::format("{0},0,10,0,0.125,0.0625\n{0},0,10,1,0,0\n", run);
  r.epsilon_median = {0, 0.0625};
  r.epsilon_p90 = {0, 0.125};
  return r;
}

// A checkpoint whose header is right for `body` (its length and SHA-256): what a crafted or
// corrupt-but-rehashed file looks like.
std::string with_header(const std::string& body, int version = RunCheckpoints::kVersion) {
  return fmt::format("fbosim-run-checkpoint {} bytes {} sha256 {}\n", version, body.size(),
                     fbosim::core::sha256_hex(body)) +
         body;
}

std::string body_of(const std::string& text) { return text.substr(text.find('\n') + 1); }

std::string problem(const std::string& text, int run = 1, const std::string& key = "k") {
  const CheckpointRead r = read_checkpoint(text, run, key);
  CHECK_FALSE(r.result);
  return r.problem;
}

std::string fresh(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("fbosim_ckpt_" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}
}  // namespace

TEST_CASE("a checkpoint verifies only for its run and key, with every byte as written") {
  const std::string text = checkpoint_text(sample(1), "k");
  const CheckpointRead ok = read_checkpoint(text, 1, "k");
  REQUIRE(ok.result);
  CHECK(ok.problem.empty());
  CHECK(ok.result->trace_csv == sample(1).trace_csv);
  // The per-agent ledgers' outputs survive a resume (format 5).
  CHECK(ok.result->agent_columns == sample(1).agent_columns);
  CHECK(ok.result->agents_csv == sample(1).agents_csv);
  CHECK(ok.result->epsilon_median == sample(1).epsilon_median);
  CHECK(ok.result->epsilon_p90 == sample(1).epsilon_p90);
  CHECK(checkpoint_text(*ok.result, "k") == text);

  // One changed digit of a trace row, and of a server row.
  std::string digit = text;
  digit[digit.find("0.25")] = '1';
  CHECK(problem(digit) == "its content does not match its SHA-256 (edited or corrupt)");
  std::string server = text;
  server[server.find("0.0333") + 5] = '4';
  CHECK(problem(server) == "its content does not match its SHA-256 (edited or corrupt)");
  // Run 0's checkpoint in run 1's place; a checkpoint of another config or build.
  CHECK(problem(checkpoint_text(sample(0), "k")) == "it holds run 0, not run 1");
  CHECK(problem(text, 1, "another key") == "it was made for another config or build");
  // Truncated, extended, empty, another format version, a header claiming 10^12 bytes.
  CHECK(problem(text.substr(0, text.size() - 3)).rfind("truncated: ", 0) == 0);
  CHECK(problem(text + "x").find("bytes after the header") != std::string::npos);
  CHECK(problem("") == "empty file");
  CHECK(problem("PK\x03\x04 zip") == "not an fbosim run checkpoint");
  CHECK(problem(with_header(body_of(text), 4)) ==
        "checkpoint format version 4, this build reads version 5");
  std::string huge = text;
  huge.replace(huge.find("bytes ") + 6, huge.find(" sha256") - huge.find("bytes ") - 6,
               "1000000000000");
  CHECK(problem(huge).rfind("truncated: ", 0) == 0);
}

TEST_CASE("sizes inside a checkpoint are checked against its length before allocating") {
  const std::string body = body_of(checkpoint_text(sample(1), "k"));
  // Each count replaced by 10^12 (or a matrix of 10^6 x 10^6), with a header that matches:
  // a malformed checkpoint, never a bad_alloc.
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"trace ", "trace 1000000000000\n"},
           {"release ", "release 1000000000000\n"},
           {"best_f 2 2", "best_f 1000000 1000000"},
           {"regret 2 2", "regret 1000000000000 0"},
           {"vector 2", "vector 1000000000000"},
           {"server 1", "server 1000000000000"},
           {"columns 4", "columns 1000000000000"},
           {"extra 0", "extra 1000000000000"},
           {"agents ", "agents 1000000000000\n"},
           {"agent_columns 2", "agent_columns 1000000000000"}}) {
    INFO(to);
    std::string crafted = body;
    const auto at = crafted.find(from);
    REQUIRE(at != std::string::npos);
    const auto end = from.back() == ' ' ? crafted.find('\n', at) + 1 : at + from.size();
    crafted.replace(at, end - at, to);
    CHECK(problem(with_header(crafted)) == "malformed content");
  }
}

TEST_CASE("RunCheckpoints removes what does not verify and what is not its folder") {
  const std::string out = fresh("folder");
  {
    const RunCheckpoints c(out, "k");
    c.save(sample(0));
    c.save(sample(1));
    CHECK(c.load(0).result);
    fs::copy_file(c.path(0), c.path(1), fs::copy_options::overwrite_existing);
    const CheckpointRead r = c.load(1);
    CHECK_FALSE(r.result);
    CHECK(r.problem == "it holds run 0, not run 1");
    CHECK_FALSE(fs::exists(c.path(1)));  // removed, so that the new one can take its place
    fs::create_directory(c.path(2));     // a directory where a checkpoint would be
    CHECK(c.load(2).problem == "not a regular file");
    CHECK_FALSE(fs::exists(c.path(2)));
    CHECK(c.load(3).problem.empty());  // no checkpoint: nothing to say
  }
  // .fbosim-partial as a file, then as a link to a directory that must stay untouched.
  const std::string folder = out + "/" + RunCheckpoints::kFolder;
  fs::remove_all(folder);
  std::ofstream(folder) << "not a folder";
  {
    const RunCheckpoints c(out, "k");
    CHECK(c.note().find("a file that is not a directory") != std::string::npos);
    CHECK(fs::is_directory(fs::symlink_status(folder)));
  }
  const std::string elsewhere = fresh("elsewhere");
  std::ofstream(elsewhere + "/keep.txt") << "keep";
  fs::remove_all(folder);
  fs::create_directory_symlink(elsewhere, folder);
  {
    const RunCheckpoints c(out, "k");
    CHECK(c.note().find("a symbolic link") != std::string::npos);
    CHECK_FALSE(fs::is_symlink(folder));
  }
  CHECK(fs::exists(elsewhere + "/keep.txt"));
}

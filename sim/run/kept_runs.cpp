#include "sim/run/kept_runs.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/sha256.hpp"
#include "sim/output/atomic_file.hpp"
#include "sim/run/run_checkpoint.hpp"

namespace fbosim::run {

namespace {
namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string digest_of(const std::string& rows) {
  return fmt::format("{} {}", rows.size(), core::sha256_hex(rows));
}

// The rows of a CSV file after its header, consumed run by run.
class Rows {
 public:
  explicit Rows(std::string text) : text_(std::move(text)) {
    const std::size_t eol = text_.find('\n');
    at_ = eol == std::string::npos ? text_.size() : eol + 1;
  }
  // The next `digest` ("<bytes> <sha256>") worth of rows, if they match it.
  bool take(const std::string& digest, std::string& rows) {
    std::istringstream in(digest);
    std::size_t n = 0;
    std::string sha;
    if (!(in >> n >> sha) || n > text_.size() - at_) return false;
    rows = text_.substr(at_, n);
    if (core::sha256_hex(rows) != sha) return false;
    at_ += n;
    return true;
  }

 private:
  std::string text_;
  std::size_t at_ = 0;
};

}  // namespace

std::string growth_key(const std::string& build_id, const std::string& config_text) {
  static const std::regex runs_line("(^|\n)runs: [^\n]*");
  return "build " + build_id + "\n" + std::regex_replace(config_text, runs_line, "$1runs: any");
}

KeptRuns::KeptRuns(std::string out_dir, std::string key)
    : out_dir_(std::move(out_dir)), dir_(out_dir_ + "/" + kFolder), key_(std::move(key)) {}

std::vector<RunResult> KeptRuns::load(int runs, std::string& note) const {
  note.clear();
  std::vector<RunResult> out;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return out;
  Rows trace(read_file(out_dir_ + "/trace.csv")), release(read_file(out_dir_ + "/release.csv")),
      agents(read_file(out_dir_ + "/agents.csv"));
  for (int r = 0; r < runs; ++r) {
    const std::string text = read_file(fmt::format("{}/run-{}.ckpt", dir_, r));
    if (text.empty()) break;
    CheckpointRead read = read_checkpoint(text, r, key_);
    if (!read.result) break;  // another config or build (an ordinary change), or damaged
    RunResult res = std::move(*read.result);
    std::string rows;
    if (!trace.take(res.trace_csv, rows)) {
      note = fmt::format("run {}'s rows of trace.csv changed since they were written", r);
      break;
    }
    res.trace_csv = std::move(rows);
    if (!release.take(res.release_csv, rows)) {
      note = fmt::format("run {}'s rows of release.csv changed since they were written", r);
      break;
    }
    res.release_csv = std::move(rows);
    if (!agents.take(res.agents_csv, rows)) {
      note = fmt::format("run {}'s rows of agents.csv changed since they were written", r);
      break;
    }
    res.agents_csv = std::move(rows);
    out.push_back(std::move(res));
  }
  return out;
}

RunResult KeptRuns::record_of(const RunResult& full) {
  RunResult r;
  r.run = full.run;
  r.dim = full.dim;
  r.trace_csv = digest_of(full.trace_csv);
  r.release_csv = digest_of(full.release_csv);
  r.server_columns = full.server_columns;
  r.server = full.server;
  r.best_f = full.best_f;
  r.regret = full.regret;
  r.epsilon = full.epsilon;
  r.extra_epsilon = full.extra_epsilon;
  // Per-agent ledgers: agents.csv's rows (by digest, as the trace's) and summary's spread.
  r.agent_columns = full.agent_columns;
  r.agents_csv = digest_of(full.agents_csv);
  r.epsilon_median = full.epsilon_median;
  r.epsilon_p90 = full.epsilon_p90;
  r.final_epsilon = full.final_epsilon;
  r.messages = full.messages;
  r.clipped = full.clipped;
  r.fallbacks = full.fallbacks;
  r.setup_seconds = full.setup_seconds;
  r.history_seconds = full.history_seconds;
  r.round_seconds = full.round_seconds;
  return r;
}

void KeptRuns::save(const std::vector<RunResult>& records) const {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir_, ec)) && !fs::is_directory(fs::symlink_status(dir_, ec)))
    fs::remove(dir_, ec);
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create it: {}", dir_, ec.message()));
  for (const RunResult& r : records) {
    output::AtomicFile f(fmt::format("{}/run-{}.ckpt", dir_, r.run));
    f.write(checkpoint_text(r, key_));
    f.commit();
  }
  // Records of runs beyond these point into rows that are gone.
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    int run = -1;
    if (std::sscanf(name.c_str(), "run-%d.ckpt", &run) == 1 &&
        name == fmt::format("run-{}.ckpt", run) && run >= static_cast<int>(records.size()))
      fs::remove(it->path(), ec);
  }
}

}  // namespace fbosim::run

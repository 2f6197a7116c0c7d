#include "sim/sweep/sweep_done.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/sha256.hpp"
#include "sim/output/atomic_file.hpp"

namespace fbosim::sweep {

namespace {
namespace fs = std::filesystem;

constexpr const char* kMagic = "fbosim-sweep-done 2";
constexpr std::size_t kMaxSize = 4096;  // a record is a few hundred bytes

const char* const kOutputs[] = {"trace.csv", "server.csv", "summary.csv", "config.resolved.yaml"};
const char* const kOptionalOutputs[] = {"release.csv", "agents.csv", "summary_time.csv",
                                        "agents_time.csv", "time_to_target.csv"};

bool is_hex64(const std::string& s) {
  return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// Adds a file's name, size and content to the hash (the size keeps file boundaries apart).
bool hash_file(core::Sha256& h, const std::string& dir, const char* name) {
  std::error_code ec;
  if (!fs::is_regular_file(dir + "/" + name, ec)) return false;  // a FIFO would block
  std::ifstream in(dir + "/" + name, std::ios::binary);
  if (!in) return false;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  h.update(fmt::format("{} {}\n", name, text.size()));
  h.update(text);
  return true;
}
}  // namespace

std::string sweep_fingerprint(const std::string& build, const std::string& config_text) {
  return core::sha256_hex(fmt::format("build {}\n", build) + config_text);
}

std::string sweep_id(const std::string& config_text, const std::vector<std::string>& overrides) {
  core::Sha256 h;
  h.update(fmt::format("config {}\n", config_text.size()));
  h.update(config_text);
  for (const std::string& o : overrides) {
    h.update(fmt::format("\nset {}\n", o.size()));
    h.update(o);
  }
  return h.hex();
}

std::string sweep_outputs_hash(const std::string& dir, std::string* missing) {
  core::Sha256 h;
  for (const char* f : kOutputs)
    if (!hash_file(h, dir, f)) {
      if (missing) *missing = f;
      return "";
    }
  // The outputs a run writes only in some settings, where it wrote them (absent elsewhere:
  // nothing is added; one removed after the record no longer matches it): release.csv, the
  // per-agent ledgers, and the time-grid outputs of the asynchronous schedules.
  for (const char* f : kOptionalOutputs)
    if (fs::exists(dir + "/" + f)) hash_file(h, dir, f);
  return h.hex();
}

std::optional<SweepDone> SweepDone::read(const std::string& dir, std::string& problem) {
  problem.clear();
  const std::string path = dir + "/" + kFile;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return {};
  const auto garbage = [&](const std::string& why) -> std::optional<SweepDone> {
    problem = "its " + std::string(kFile) + " is not a record fbosim writes (" + why + ")";
    return {};
  };
  if (!fs::is_regular_file(path, ec)) return garbage("not a regular file");
  if (fs::file_size(path, ec) > kMaxSize) return garbage("too large");
  std::ifstream in(path, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    return garbage("first line is not '" + std::string(kMagic) + "'");
  SweepDone d;
  std::string seconds;
  for (const char* key : {"fingerprint", "build", "sweep", "outputs", "seconds"}) {
    std::string word, value, rest;
    if (!std::getline(in, line)) return garbage(fmt::format("no {} line", key));
    std::istringstream fields(line);
    if (!(fields >> word >> value) || word != key || (fields >> rest))
      return garbage(fmt::format("expected '{} VALUE', got '{}'", key, line.substr(0, 80)));
    if (word == "fingerprint") d.fingerprint = value;
    if (word == "build") d.build = value;
    if (word == "sweep") d.sweep = value;
    if (word == "outputs") d.outputs = value;
    if (word == "seconds") seconds = value;
  }
  if (std::getline(in, line)) return garbage("text after the seconds line");
  if (!is_hex64(d.fingerprint) || !is_hex64(d.sweep) || !is_hex64(d.outputs))
    return garbage("a hash is not SHA-256");
  const auto [end, err] =
      std::from_chars(seconds.data(), seconds.data() + seconds.size(), d.seconds);
  if (err != std::errc() || end != seconds.data() + seconds.size() || !std::isfinite(d.seconds) ||
      d.seconds < 0)
    return garbage("seconds '" + seconds + "' is not a duration");
  return d;
}

void SweepDone::write(const std::string& dir, const std::string& build,
                      const std::string& config_text, const std::string& sweep, double seconds) {
  output::AtomicFile done(dir + "/" + kFile);
  done.write(fmt::format("{}\nfingerprint {}\nbuild {}\nsweep {}\noutputs {}\nseconds {:.3f}\n",
                         kMagic, sweep_fingerprint(build, config_text), build, sweep,
                         sweep_outputs_hash(dir), seconds));
  done.commit();
}

std::string SweepDone::mismatch(const std::string& dir, const std::string& build,
                                const std::string& config_text) const {
  if (this->build != build) return "made by build " + this->build + ", this is build " + build;
  if (fingerprint != sweep_fingerprint(build, config_text)) return "its config changed";
  std::string missing;
  const std::string now = sweep_outputs_hash(dir, &missing);
  if (now.empty()) return missing + " is missing";
  if (now != outputs)
    return "its files changed since the sweep wrote them (e.g. a later fbosim run into it)";
  return "";
}

}  // namespace fbosim::sweep

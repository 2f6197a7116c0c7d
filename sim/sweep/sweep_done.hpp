#pragma once
// DIR/<point>/sweep.done: the record a sweep writes last, atomically, when a point finished
// (docs/SWEEPS.md "Resume and safety"):
//   fbosim-sweep-done 2
//   fingerprint <SHA-256 of the build id and the point's config.resolved.yaml text>
//   build <the build id>
//   sweep <SHA-256 of the sweep's config text and --set overrides: one value per sweep command>
//   outputs <SHA-256 of the point's output files as the sweep wrote them>
//   seconds <wall time of the point's run>
// A point is reused (by the sweep) or merged (by `fbosim merge`) only when its record parses
// exactly and still matches its files; anything else is a point to run again, with the reason.
// `sweep` lets merge refuse shards of different sweep commands (another --set, another config
// file): their points' configs differ in more than the swept keys. A reused point's record is
// rewritten with the sweep that reused it.
#include <optional>
#include <string>
#include <vector>

namespace fbosim::sweep {

struct SweepDone {
  std::string fingerprint, build, sweep, outputs;
  double seconds = 0;

  static constexpr const char* kFile = "sweep.done";

  /// Reads DIR/sweep.done: std::nullopt with `problem` empty when there is none, or with why it
  /// is not a record fbosim writes (garbage, truncated, another format).
  static std::optional<SweepDone> read(const std::string& dir, std::string& problem);
  /// Writes DIR/sweep.done for DIR's outputs as they are now.
  static void write(const std::string& dir, const std::string& build,
                    const std::string& config_text, const std::string& sweep, double seconds);
  /// Why DIR is not the finished point of `build` and `config_text` this record describes
  /// ("" when it is): another build, another config, files changed or missing since.
  std::string mismatch(const std::string& dir, const std::string& build,
                       const std::string& config_text) const;
};

/// The fingerprint of a point: equal fingerprints mean the same sources computing the same
/// outputs from the same config (results do not depend on the thread count).
std::string sweep_fingerprint(const std::string& build, const std::string& config_text);

/// The `sweep` value of a sweep command: SHA-256 of its config text and overrides, in order.
std::string sweep_id(const std::string& config_text, const std::vector<std::string>& overrides);

/// SHA-256 over the point's output files (trace.csv, server.csv, summary.csv,
/// config.resolved.yaml, and release.csv where there is one), each with its name; "" and the
/// missing file's name in `missing` when one of the four is absent.
std::string sweep_outputs_hash(const std::string& dir, std::string* missing = nullptr);

}  // namespace fbosim::sweep

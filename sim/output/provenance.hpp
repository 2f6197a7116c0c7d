#pragma once
// What a results directory records about how its results were made, and the guard that keeps
// one run from silently replacing another's results (issue #10, docs/SWEEPS.md "Resume").
//   config.resolved.yaml  the config with every value used, server.delta as a number: loadable
//                         by `fbosim run` (it reproduces the results)
//   provenance.yaml       version, commit, modified flag, build id, command line, working
//                         directory, seed, runs, threads, delta, accountant(s), start and end
//                         time (UTC), runs reused from an interrupted attempt, the data files
//                         read with their SHA-256 and whether they are the published ones, and
//                         what the algorithm decided from run 0's data (`algorithm_facts`,
//                         e.g. PO-GP-UCB's curator branch). Not a
//                         config; the only file that depends on the thread count or the clock.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/config/experiment_spec.hpp"

namespace fbosim::output {

/// The text of config.resolved.yaml: `resolved` with server.delta set to the delta used
/// (spec.delta(); the config's `~` means N^-1.1), shortest round-trip decimal.
std::string resolved_config_text(const config::ExperimentSpec& spec, const YAML::Node& resolved);

/// The differences between two resolved configs, one "key: A there, B here" per dotted key
/// (`there` = a, `here` = b), in key order. A null server.delta in `a` (files written before
/// delta was recorded) counts as agents.count^-1.1, the value it meant.
std::vector<std::string> config_differences(const YAML::Node& a, const YAML::Node& b);

/// Thrown when a directory holds the results of another config and --force was not given.
class ResultsClash : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The file a results directory holds while its set of output files is committed
/// (sim/run/result_files.hpp): the resolved config of the set being committed. It is written
/// before the first file is renamed into place and removed after the last (config.resolved.yaml,
/// the set's sign of completeness), so a directory holding it has an incomplete set, whatever
/// stopped the commit (a full disk, a SIGKILL between two renames).
inline constexpr const char* kCommitMarker = ".fbosim-committing";

/// Refuses (ResultsClash naming the directory, the differing keys and --force) to write the
/// results of `resolved_text` into `dir` when it holds results of a different config, results
/// without config.resolved.yaml, or the incomplete set of another config (kCommitMarker); does
/// nothing when `force`, when `dir` holds no results, when they are of the same config (a re-run
/// or a resume) or when they are the incomplete set of the same config (the commit is redone).
void check_results_dir(const std::string& dir, const std::string& resolved_text, bool force);

/// Thrown when a results directory, or a file or folder fbosim keeps in one, is a symbolic link.
class LinkedResults : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Refuses (LinkedResults naming the link and its target) a results directory that is a
/// symbolic link or holds one under a name fbosim writes or reads there (the output files,
/// sweep.done, the commit marker, the folder of finished runs): results are written only into
/// a directory fbosim was given, never through a link into another folder (`--force` does not
/// change that). A link among the directory's parents is followed (results/ on another disk).
void check_no_links(const std::string& dir);

/// This process's command line (from /proc/self/cmdline), quoted for a POSIX shell.
std::string command_line();
/// The current UTC time, "2026-11-24T07:50:00Z".
std::string utc_now();

/// A data file a run read: its SHA-256 and whether it is the published file
/// (datasets/data_checksum.hpp).
struct DataRecord {
  std::string file, sha256, check;
};

struct Provenance {
  std::string command, cwd, started, finished;
  int threads = 0;
  int resumed_runs = 0;          ///< runs reused from the checkpoints of an interrupted attempt
  std::vector<DataRecord> data;  ///< the data files read (none for synthetic objectives)
  /// What the algorithm decided from run 0's data (protocol::Algorithm::run_facts), written
  /// as the map `algorithm_facts` when there is any.
  std::vector<std::pair<std::string, std::string>> algorithm_facts;
};

/// The text of provenance.yaml for these results.
std::string provenance_text(const config::ExperimentSpec& spec, const Provenance& p);
/// The text of a sweep directory's provenance.yaml: the build, command line, working
/// directory, jobs, threads per point, shard and times (each point records its seed and delta).
std::string sweep_provenance_text(const Provenance& p, int jobs, const std::string& shard);

}  // namespace fbosim::output

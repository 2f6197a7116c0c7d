#pragma once
// The version and source identity of this build, generated at build time by
// cmake/build_info.cmake (so a rebuild after a commit or an edit reports the new state).
#include <string>

namespace fbosim::output {

struct BuildInfo {
  std::string version;  ///< project version, e.g. "0.1.0"
  std::string commit;   ///< full git commit, "unknown" outside a git checkout
  bool modified;        ///< the sources differed from the commit (or no git: unknown)
  /// Identifies the sources: the commit when clean; "<commit>-modified-<12 hex of SHA-256 over
  /// `git diff HEAD` and the untracked files>" when modified; "unknown-src-<12 hex of SHA-256
  /// over the source files>" without git. Two builds with the same id compiled the same sources.
  std::string build_id;
};

const BuildInfo& build_info();

/// "fbosim 0.1.0 (commit 0123abcd4567, modified)"; "(commit unknown: not built from a git
/// checkout)" without git.
std::string version_line();

}  // namespace fbosim::output

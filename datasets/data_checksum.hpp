#pragma once
// The published data files and their SHA-256, and the check that the files a run reads are
// those files (a byte flipped inside a landmine field would otherwise change the results
// silently). The table is the one tools/fetch_datasets.sh verifies downloads with; a test
// (tests/datasets/data_checksum_test.cpp) keeps the two equal.
//
// Each file is hashed once per process (a sweep of many points reads it once; the landmine
// file takes about 10 ms) and the verdict is kept. A file that differs from the published one
// is an error naming the file, both SHA-256 and what to do, unless the environment sets
// FBOSIM_DATA_UNVERIFIED=1 (a user's own copy of the data): then it is one warning line on
// stderr, and the run's provenance.yaml records the file as differing. A file whose published
// SHA-256 is not known (UCI HAR's extracted files: UCI publishes none, and the pinned archive
// hashes of fetch_datasets.sh are not those of the files) is hashed and recorded as unverified.
#include <string>
#include <vector>

namespace fbosim::datasets {

/// A data file whose published SHA-256 is known.
struct DataChecksum {
  const char* name;    ///< its path under datasets.root, e.g. "landmine/LandmineData.mat"
  const char* sha256;  ///< 64 lower-case hex digits
};

/// Every data file fbosim knows the SHA-256 of.
const std::vector<DataChecksum>& known_checksums();

/// What the check found for one file.
struct DataFileRecord {
  std::string path;    ///< as read
  std::string name;    ///< under datasets.root
  std::string sha256;  ///< of the file as read
  std::string check;   ///< "verified", "differs from the published file (sha256 E)" or
                       ///< "no published checksum"
};

/// Checks the file at `path`, read as the data file `name`, against its published SHA-256
/// (once per process and path). Throws std::runtime_error on a mismatch (see above) or when
/// the file cannot be read.
void verify_data_file(const std::string& path, const std::string& name);

/// Every file checked so far in this process whose path starts with `prefix` (all with ""),
/// in order of first check.
std::vector<DataFileRecord> data_file_records(const std::string& prefix = "");

/// The environment variable that turns a mismatch into a warning.
inline constexpr const char* kUnverifiedEnv = "FBOSIM_DATA_UNVERIFIED";

}  // namespace fbosim::datasets

#include "datasets/data_checksum.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "core/sha256.hpp"

namespace fbosim::datasets {

namespace {
std::mutex& records_mutex() {
  static std::mutex m;
  return m;
}
std::vector<DataFileRecord>& records() {
  static std::vector<DataFileRecord> r;
  return r;
}

bool unverified_allowed() {
  const char* v = std::getenv(kUnverifiedEnv);
  return v && std::strcmp(v, "1") == 0;
}
}  // namespace

const std::vector<DataChecksum>& known_checksums() {
  // The values of tools/fetch_datasets.sh (LANDMINE_SHA256, FEMNIST_FILES).
  static const std::vector<DataChecksum> table = {
      {"landmine/LandmineData.mat",
       "2163ab20a80e33a8b65593c48cf283c540599dcb291105e63fa4af2ce24c2bea"},
      {"femnist_digits/train-images-idx3-ubyte",
       "2a98571f2e58bdd847140165a40ea241f8aea6bea827054ab67fd5cce36da8f4"},
      {"femnist_digits/train-labels-idx1-ubyte",
       "13b3eb31fc609fddf4cd0d688c4b88e4dbaf97718b6cd00e657ab3f37439da41"},
      {"femnist_digits/train-writers.csv",
       "6e5cf79b63e1d93b125123b22bb26eac723030e41dbc1cab5e1917587e3beca1"},
      {"femnist_digits/test-images-idx3-ubyte",
       "30a126694ea3f4f31d97a7545dc3000fb7a89fce785392256fb581374862f2dd"},
      {"femnist_digits/test-labels-idx1-ubyte",
       "a167c29b65ad25e219a543a59b0ee6813fc34065bac873bb7b4f8c358ff45560"},
      {"femnist_digits/test-writers.csv",
       "53798af92e2375f3c0dd74b0da567369ee15af5b60cfa0dd85e1f15f365b3c3a"},
      {"femnist_digits/writers.csv",
       "3ad68be00a0c4c18f34520460501666cf5c76e7fd29527d6bc99e1e99bff86e2"},
  };
  return table;
}

void verify_data_file(const std::string& path, const std::string& name) {
  {
    std::lock_guard<std::mutex> guard(records_mutex());
    for (const DataFileRecord& r : records())
      if (r.path == path) return;  // checked before (a mismatch would have thrown, or warned)
  }
  std::string expected;
  for (const DataChecksum& c : known_checksums())
    if (name == c.name) expected = c.sha256;
  // Hashed outside the lock: two threads may hash one file at once; only one record is kept.
  const std::string actual = core::sha256_file(path);
  DataFileRecord record{path, name, actual, "verified"};
  if (expected.empty()) {
    record.check = "no published checksum";
  } else if (actual != expected) {
    record.check = "differs from the published file (sha256 " + expected + ")";
    if (!unverified_allowed())
      throw std::runtime_error(fmt::format(
          "data file {} is not the published {}: its SHA-256 is {}, expected {}; fetch it again "
          "with tools/fetch_datasets.sh, or set {}=1 to use this copy anyway (recorded in "
          "provenance.yaml)",
          path, name, actual, expected, kUnverifiedEnv));
  }
  std::lock_guard<std::mutex> guard(records_mutex());
  for (const DataFileRecord& r : records())
    if (r.path == path) return;
  if (actual != expected && !expected.empty())
    std::fprintf(stderr,
                 "fbosim: warning: data file %s is not the published %s (SHA-256 %s, expected "
                 "%s); used because %s=1: results are not those of the published data\n",
                 path.c_str(), name.c_str(), actual.c_str(), expected.c_str(), kUnverifiedEnv);
  records().push_back(std::move(record));
}

std::vector<DataFileRecord> data_file_records(const std::string& prefix) {
  std::lock_guard<std::mutex> guard(records_mutex());
  std::vector<DataFileRecord> out;
  for (const DataFileRecord& r : records())
    if (r.path.compare(0, prefix.size(), prefix) == 0) out.push_back(r);
  return out;
}

}  // namespace fbosim::datasets

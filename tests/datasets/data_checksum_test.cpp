// The published data files' SHA-256 (issue #24, section 3): one table, the one
// tools/fetch_datasets.sh downloads against; the shared copies match it; a file that differs
// is an error naming it unless FBOSIM_DATA_UNVERIFIED=1, and every file read is recorded.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "datasets/data_checksum.hpp"
#include "datasets/emnist/femnist_data.hpp"
#include "datasets/landmine/landmine_data.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim::datasets;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const fs::path kShared = fs::path(fbosim::testing::data_root());

struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }
  const char* name_;
};

// A copy of a shared data folder in a fresh temporary root, with one byte of `file` changed
// at `offset` (flipping its lowest bit: a number changes, the file stays well-formed).
fs::path flipped_copy(const std::string& name, const std::string& folder, const std::string& file,
                      std::size_t offset) {
  const fs::path root = fs::temp_directory_path() / ("fbosim_data_" + name);
  fs::remove_all(root);
  fs::create_directories(root / folder);
  for (const auto& e : fs::directory_iterator(kShared / folder))
    fs::copy_file(e.path(), root / folder / e.path().filename());
  std::string bytes = slurp(root / folder / file);
  REQUIRE(offset < bytes.size());
  bytes[offset] = static_cast<char>(bytes[offset] ^ 1);
  fs::permissions(root / folder / file, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(root / folder / file, std::ios::binary | std::ios::trunc) << bytes;
  return root;
}
}  // namespace

TEST_CASE("the SHA-256 table is the one tools/fetch_datasets.sh verifies downloads with") {
  const std::string script = slurp(fs::path(FBOSIM_SOURCE_DIR) / "tools" / "fetch_datasets.sh");
  std::map<std::string, std::string> in_script;
  std::smatch m;
  REQUIRE(std::regex_search(script, m, std::regex("\nLANDMINE_SHA256=([0-9a-f]{64})\n")));
  in_script["landmine/LandmineData.mat"] = m[1];
  const std::regex femnist("\n  \"([A-Za-z0-9.-]+) ([0-9a-f]{64})\"");
  for (auto it = std::sregex_iterator(script.begin(), script.end(), femnist);
       it != std::sregex_iterator(); ++it)
    in_script["femnist_digits/" + (*it)[1].str()] = (*it)[2];
  std::map<std::string, std::string> in_table;
  for (const DataChecksum& c : known_checksums()) in_table[c.name] = c.sha256;
  CHECK(in_script.size() == 8);
  CHECK(in_table == in_script);
}

TEST_CASE("the shared data files are the published ones") {
  for (const DataChecksum& c : known_checksums()) {
    INFO(c.name);
    if (!fs::exists(kShared / c.name)) continue;  // a machine without the data
    CHECK_NOTHROW(verify_data_file((kShared / c.name).string(), c.name));
  }
  for (const DataFileRecord& r : data_file_records(kShared.string())) {
    INFO(r.path);
    CHECK(r.check == "verified");
  }
}

TEST_CASE("a landmine file with one flipped byte is refused, or used and recorded when allowed") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  // Byte 100,000 lies inside the doubles of field 1's features (the file is uncompressed).
  const fs::path root = flipped_copy("landmine", "landmine", "LandmineData.mat", 100000);
  const std::string path = (root / "landmine" / "LandmineData.mat").string();
  CHECK_THROWS_WITH(
      load_landmine(path),
      Catch::Contains("data file " + path + " is not the published landmine/LandmineData.mat") &&
          Catch::Contains(
              "expected 2163ab20a80e33a8b65593c48cf283c540599dcb291105e63fa4af2ce24c2bea") &&
          Catch::Contains("tools/fetch_datasets.sh") &&
          Catch::Contains("FBOSIM_DATA_UNVERIFIED=1"));
  const ScopedEnv allow(kUnverifiedEnv, "1");
  const std::vector<LandmineField> fields = load_landmine(path);
  CHECK(fields.size() == 29);
  const std::vector<DataFileRecord> r = data_file_records(path);
  REQUIRE(r.size() == 1);
  CHECK(r[0].check ==
        "differs from the published file (sha256 "
        "2163ab20a80e33a8b65593c48cf283c540599dcb291105e63fa4af2ce24c2bea)");
  CHECK(r[0].sha256 != "2163ab20a80e33a8b65593c48cf283c540599dcb291105e63fa4af2ce24c2bea");
}

TEST_CASE("a FEMNIST file with one flipped pixel is refused, naming the file") {
  if (!fbosim::testing::have_data("femnist_digits/train-images-idx3-ubyte")) return;
  const fs::path root = flipped_copy("femnist", "femnist_digits", "train-images-idx3-ubyte", 5000);
  CHECK_THROWS_WITH(load_femnist_digits((root / "femnist_digits").string()),
                    Catch::Contains("train-images-idx3-ubyte is not the published "
                                    "femnist_digits/train-images-idx3-ubyte"));
}

TEST_CASE("a file without a published SHA-256 is hashed and recorded as such, once") {
  const fs::path path = fs::temp_directory_path() / "fbosim_data_unknown.txt";
  std::ofstream(path) << "abc";
  verify_data_file(path.string(), "har/UCI HAR Dataset/features.txt");
  std::ofstream(path) << "changed after the first check";  // the verdict is kept per process
  verify_data_file(path.string(), "har/UCI HAR Dataset/features.txt");
  const std::vector<DataFileRecord> r = data_file_records(path.string());
  REQUIRE(r.size() == 1);
  CHECK(r[0].check == "no published checksum");
  CHECK(r[0].sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK_THROWS_WITH(verify_data_file("/nonexistent/fbosim/X_train.txt", "x"),
                    Catch::Contains("/nonexistent/fbosim/X_train.txt"));
}

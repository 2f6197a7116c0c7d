#include "tests/data_sets.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace fbosim::testing {

namespace {
bool g_skipped = false;
}  // namespace

std::string data_root() {
  const char* env = std::getenv("FBOSIM_DATA");
  if (env != nullptr && *env != '\0') return env;
  return std::string(FBOSIM_SHARED_DIR) + "/datasets";
}

std::string data_path(const std::string& relative) { return data_root() + "/" + relative; }

bool have_data(const std::string& relative) {
  const std::string path = data_path(relative);
  if (std::filesystem::exists(path)) return true;
  if (!g_skipped)  // one line per process: CTest runs one test case per process
    std::cout << "skipped: no " << path
              << " (tools/fetch_datasets.sh downloads the data sets; FBOSIM_DATA=DIR points "
                 "the tests at them)"
              << std::endl;
  g_skipped = true;
  return false;
}

bool skipped_for_data() { return g_skipped; }

}  // namespace fbosim::testing

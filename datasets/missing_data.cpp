#include "datasets/missing_data.hpp"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

namespace fbosim::datasets {

namespace {

namespace fs = std::filesystem;

// The data set's name in tools/fetch_datasets.sh and what it holds.
struct DataSet {
  const char* fetch;
  const char* what;
};

DataSet data_set(const std::string& family) {
  if (family == "landmine") return {"landmine", "the landmine fields (LandmineData.mat)"};
  if (family == "activity") return {"har", "UCI HAR (the `UCI HAR Dataset` folder)"};
  return {"femnist", "the FEMNIST digits by writer (femnist_digits/)"};
}

// Where datasets.root's value came from.
std::string root_source(const std::string& root) {
  const char* env = std::getenv("FBOSIM_DATA");
  if (env && *env && root == env) return "the value of $FBOSIM_DATA";
  if (!env || !*env)
    return root == "data" ? "the default: FBOSIM_DATA is not set"
                          : "set by the config or --set; FBOSIM_DATA is not set";
  return fmt::format("set by the config or --set; FBOSIM_DATA is '{}'", env);
}

}  // namespace

std::optional<std::string> missing_data(const std::string& family, const std::string& expected,
                                        const std::string& root) {
  std::error_code ec;
  if (fs::exists(expected, ec)) return std::nullopt;
  const DataSet d = data_set(family);
  const fs::path r(root);
  std::string where = "'" + root + "'";
  if (r.is_relative()) {
    const fs::path cwd = fs::current_path(ec);
    if (!ec) where += fmt::format(", that is {}", (cwd / r).lexically_normal().string());
  }
  return fmt::format(
      "{} data: no {} (objective.family {} reads {} there). datasets.root is {} ({}). Download "
      "it with `FBOSIM_DATA={} tools/fetch_datasets.sh {}`, or set datasets.root (in the config "
      "or `--set datasets.root=DIR`) or the environment variable FBOSIM_DATA to the folder that "
      "holds it",
      family, expected, family, d.what, where, root_source(root), root, d.fetch);
}

}  // namespace fbosim::datasets

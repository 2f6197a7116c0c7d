#include "sim/output/created_directories.hpp"

#include <system_error>

namespace fbosim::output {

namespace fs = std::filesystem;

CreatedDirectories::CreatedDirectories(const fs::path& dir) {
  for (fs::path p = fs::absolute(dir).lexically_normal(); !p.empty() && !fs::exists(p);
       p = p.parent_path()) {
    paths_.insert(paths_.begin(), p);
    if (p == p.parent_path()) break;
  }
}

void CreatedDirectories::remove_empty() const {
  std::error_code ec;
  for (auto it = paths_.rbegin(); it != paths_.rend(); ++it)
    if (fs::is_empty(*it, ec)) fs::remove(*it, ec);
}

}  // namespace fbosim::output

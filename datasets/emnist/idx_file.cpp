#include "datasets/emnist/idx_file.hpp"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::datasets {

IdxFile read_idx(const std::string& path, std::size_t rank) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("IDX file {}: cannot open it", path));
  unsigned char head[4];
  if (!in.read(reinterpret_cast<char*>(head), 4))
    throw std::runtime_error(fmt::format("IDX file {}: truncated header", path));
  if (head[0] != 0 || head[1] != 0 || head[2] != 0x08 || head[3] != rank)
    throw std::runtime_error(fmt::format(
        "IDX file {}: bad magic {:02x}{:02x}{:02x}{:02x}, expected 000008{:02x} (unsigned bytes, "
        "rank {})",
        path, head[0], head[1], head[2], head[3], rank, rank));
  IdxFile f;
  std::size_t total = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4))
      throw std::runtime_error(fmt::format("IDX file {}: truncated header", path));
    const std::uint32_t n = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) |
                            (std::uint32_t{b[2]} << 8) | std::uint32_t{b[3]};
    f.dims.push_back(n);
    total *= n;
  }
  f.data.resize(total);
  if (!in.read(reinterpret_cast<char*>(f.data.data()), static_cast<std::streamsize>(total)))
    throw std::runtime_error(
        fmt::format("IDX file {}: truncated data (expected {} bytes)", path, total));
  return f;
}

}  // namespace fbosim::datasets

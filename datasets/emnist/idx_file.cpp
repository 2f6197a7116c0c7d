#include "datasets/emnist/idx_file.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fbosim::datasets {

IdxFile read_idx(const std::string& path, std::size_t rank) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))  // a FIFO or a device would block or never end
    throw std::runtime_error(fmt::format("IDX file {}: missing or not a regular file", path));
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
  std::uint64_t total = 1;  // at most (2^32 - 1)^3 < 2^96 would overflow: checked per factor
  bool too_large = false;
  for (std::size_t d = 0; d < rank; ++d) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4))
      throw std::runtime_error(fmt::format("IDX file {}: truncated header", path));
    const std::uint32_t n = (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) |
                            (std::uint32_t{b[2]} << 8) | std::uint32_t{b[3]};
    f.dims.push_back(n);
    if (n != 0 && total > std::numeric_limits<std::uint64_t>::max() / n) too_large = true;
    total *= n;
  }
  // The header's sizes must match the bytes the file holds, before anything is allocated: a
  // corrupt count would otherwise ask for terabytes.
  const std::streamoff header = in.tellg();
  in.seekg(0, std::ios::end);
  const auto available = static_cast<std::uint64_t>(in.tellg() - header);
  in.seekg(header);
  if (too_large || total != available)
    throw std::runtime_error(fmt::format(
        "IDX file {}: the header gives the sizes {} ({} bytes of data), but the file holds {} "
        "bytes after its header (truncated data or a corrupt header)",
        path, fmt::join(f.dims, " x "), too_large ? std::string("too many") : std::to_string(total),
        available));
  f.data.resize(total);
  if (!in.read(reinterpret_cast<char*>(f.data.data()), static_cast<std::streamsize>(total)))
    throw std::runtime_error(
        fmt::format("IDX file {}: truncated data (expected {} bytes)", path, total));
  return f;
}

}  // namespace fbosim::datasets

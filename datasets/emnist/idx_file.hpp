#pragma once
// The IDX format of MNIST (LeCun et al.): a big-endian header (two zero bytes, a type byte,
// 0x08 = unsigned byte, and the number of dimensions), one big-endian uint32 per dimension, then
// the data row-major.
#include <cstdint>
#include <string>
#include <vector>

namespace fbosim::datasets {

struct IdxFile {
  std::vector<std::uint32_t> dims;
  std::vector<std::uint8_t> data;  ///< prod(dims) bytes
};

/// Reads an unsigned-byte IDX file; throws std::runtime_error naming the path for a missing,
/// truncated or malformed file, or a rank other than `rank`.
IdxFile read_idx(const std::string& path, std::size_t rank);

}  // namespace fbosim::datasets

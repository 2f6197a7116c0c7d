#pragma once
// SHA-256 (FIPS 180-4) through OpenSSL's EVP interface: the content hash that binds a run's
// checkpoint to its run, config and build, that a sweep point's sweep.done records, and that
// data files are checked against (datasets/data_checksum.hpp).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace fbosim::core {

/// Incremental SHA-256: update() any number of times, then hex() once.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::string_view bytes);
  /// The digest as 64 lower-case hex digits; the object is spent afterwards.
  std::string hex();

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

/// SHA-256 of `bytes`, 64 lower-case hex digits.
std::string sha256_hex(std::string_view bytes);

/// SHA-256 of a file's content read in blocks (no whole-file buffer); throws
/// std::runtime_error naming the path if it cannot be read.
std::string sha256_file(const std::string& path);

}  // namespace fbosim::core

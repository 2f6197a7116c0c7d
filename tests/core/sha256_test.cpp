// SHA-256 against the test vectors of FIPS 180-4 (NIST's "Examples with intermediate values")
// and against sha256sum(1) on a file, in one piece and in blocks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/sha256.hpp"

using fbosim::core::Sha256;
using fbosim::core::sha256_file;
using fbosim::core::sha256_hex;

TEST_CASE("SHA-256 gives the FIPS 180-4 test vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in uneven pieces.
  Sha256 h;
  for (int fed = 0; fed < 1000000;) {
    const int n = std::min(1000000 - fed, 1 + fed % 997);
    h.update(std::string(static_cast<std::size_t>(n), 'a'));
    fed += n;
  }
  CHECK(h.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256_file equals sha256sum and names a file it cannot read") {
  const auto path = std::filesystem::temp_directory_path() / "fbosim_sha256_test.bin";
  std::string bytes;
  for (int i = 0; i < 200000; ++i) bytes += static_cast<char>((i * 7919) % 251);
  std::ofstream(path, std::ios::binary) << bytes;
  CHECK(sha256_file(path.string()) == sha256_hex(bytes));
  FILE* pipe = popen(("sha256sum '" + path.string() + "'").c_str(), "r");
  REQUIRE(pipe);
  char out[65] = {};
  const std::size_t n = std::fread(out, 1, 64, pipe);
  pclose(pipe);
  if (n == 64) CHECK(sha256_file(path.string()) == std::string(out, 64));
  CHECK_THROWS_WITH(sha256_file("/nonexistent/fbosim.bin"),
                    Catch::Contains("/nonexistent/fbosim.bin"));
}

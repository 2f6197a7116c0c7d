// The single Catch2 main shared by every test executable. It pins Eigen's product blocking as
// fbosim's main does (core/eigen_blocking.hpp), so that the tests compute with the
// program's arithmetic on every machine. A run in which a test case found its data set absent
// (tests/data_sets.hpp) and nothing failed exits 77, CTest's "skipped" (SKIP_RETURN_CODE).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "core/eigen_blocking.hpp"
#include "tests/data_sets.hpp"

int main(int argc, char* argv[]) {
  fbosim::core::pin_eigen_blocking();
  const int failed = Catch::Session().run(argc, argv);
  return failed == 0 && fbosim::testing::skipped_for_data() ? 77 : failed;
}

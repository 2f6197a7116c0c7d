// The single Catch2 main shared by every test executable. It pins Eigen's product blocking as
// fbosim's main does (sim/core/eigen_blocking.hpp), so that the tests compute with the
// program's arithmetic on every machine.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "sim/core/eigen_blocking.hpp"

int main(int argc, char* argv[]) {
  fbosim::core::pin_eigen_blocking();
  return Catch::Session().run(argc, argv);
}

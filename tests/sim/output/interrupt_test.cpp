// Ctrl-C while a sweep is planned, a plan too large to build, and a write beyond the file-size
// limit (issue 24 sec. 4). The watchdog's exit is tested on the binary (tests/sim/cli).
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <string>

#include "sim/config/sweep_plan.hpp"
#include "sim/output/atomic_file.hpp"
#include "sim/output/interrupt.hpp"

using namespace fbosim::config;
using namespace fbosim::output;
namespace fs = std::filesystem;

TEST_CASE("planning a sweep stops with Interrupted once cancellation is requested") {
  SweepGrid g{"seed", {}};
  for (int k = 0; k < 100; ++k) g.values.push_back(std::to_string(k));
  fbosim::core::request_cancellation();
  CHECK_THROWS_AS(SweepPlan({g}), Interrupted);
  CHECK_THROWS_AS(parse_grid("seed=1,2,3"), Interrupted);
  fbosim::core::reset_cancellation();
  CHECK(SweepPlan({g}).points().size() == 100);
}

TEST_CASE("a sweep of more than a million points is refused before it is built") {
  SweepGrid a{"seed", {}}, b{"rounds", {}};
  for (int k = 0; k < 1001; ++k) a.values.push_back(std::to_string(k));
  for (int k = 1; k <= 1000; ++k) b.values.push_back(std::to_string(k));
  CHECK_THROWS_WITH(SweepPlan({a, b}),
                    Catch::Contains("seed (1001 values) x rounds (1000 values)") &&
                        Catch::Contains("1000000 points"));
  // Products that overflow 64 bits are refused too, not wrapped around.
  std::vector<SweepGrid> many;
  for (int k = 0; k < 8; ++k) {
    SweepGrid g{std::string(1, static_cast<char>('a' + k)), {}};
    for (int v = 0; v < 1000; ++v) g.values.push_back(std::to_string(v));
    many.push_back(g);
  }
  CHECK_THROWS_WITH(SweepPlan(many), Catch::Contains("more than 1000000 points"));
}

TEST_CASE("a write beyond the file-size limit fails naming the file and leaves nothing") {
  // As fbosim does (interrupt.hpp): SIGXFSZ ignored, so write(2) fails with EFBIG.
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
  rlimit small = old;
  small.rlim_cur = 4096;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  const fs::path dir = fs::temp_directory_path() / "fbosim_interrupt_test_fsize";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string error;
  try {
    AtomicFile f((dir / "big.csv").string());
    for (int k = 0; k < 100; ++k) f.write(std::string(1000, 'x') + "\n");
    f.commit();
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(error, Catch::Contains("big.csv") && Catch::Contains("File too large"));
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}

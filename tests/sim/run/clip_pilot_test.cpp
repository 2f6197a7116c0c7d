// The clip-norm pilot (issue 39, sim/run/clip_pilot.hpp):
//   - unclipped_quantile against a brute-force search over integer counts (the smallest norm
//     that at most a fraction 1 - gamma of the norms exceed), ties and NaN included;
//   - the pilot's norms against the private mechanism's own clipping: round 0's messages do not
//     depend on the server, so a private run of one round with q = 1 clips exactly the pilot's
//     norms above S / sqrt(P) (DpMechanism::clip, a second reader of the same messages);
//   - the end-of-run warning's threshold.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "sim/config/config_loader.hpp"
#include "core/thread_pool.hpp"
#include "sim/run/clip_pilot.hpp"
#include "sim/run/run_engine.hpp"

using namespace fbosim;
using Catch::Matchers::Contains;

namespace {

// The smallest x in `norms` with #{y > x} * 1000 <= (1000 - permille) * n: integer arithmetic.
double brute_force(const std::vector<double>& norms, int permille) {
  const auto n = static_cast<long long>(norms.size());
  double best = std::numeric_limits<double>::infinity();
  for (double x : norms) {
    long long above = 0;
    for (double y : norms)
      above += (std::isnan(y) ? std::numeric_limits<double>::infinity() : y) > x;
    if (above * 1000 <= (1000 - permille) * n) best = std::min(best, x);
  }
  return best;
}

const char* kPilot =
    "algorithm: dp_fts_de\nrounds: 1\nruns: 1\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 12, init_points: 3}\nexploration: {subregions: 2}\n"
    "rff: {features: 20, lengthscale: 0.05}\nlocal_ts: {features: 30}\n"
    "server: {sampling_rate: 1, noise_multiplier: 1, delta: 1.0e-5}\n";

}  // namespace

TEST_CASE("unclipped_quantile is the smallest norm that leaves a share gamma unclipped") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 10);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> norms(1 + trial % 37);
    for (double& x : norms) x = std::round(u(rng));  // ties
    for (const int permille : {1, 100, 250, 500, 700, 900, 950, 999, 1000}) {
      INFO("trial " << trial << ", gamma " << permille / 1000.0);
      CHECK(run::unclipped_quantile(norms, permille / 1000.0) == brute_force(norms, permille));
    }
  }
  // Ten norms: the 9th leaves 90% unclipped; gamma = 0.7 (0.7 x 10 = 7.000000000000001) the 7th.
  const std::vector<double> ten = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  CHECK(run::unclipped_quantile(ten, 0.9) == 9);
  CHECK(run::unclipped_quantile(ten, 0.7) == 7);
  CHECK(run::unclipped_quantile(ten, 1.0) == 10);
  CHECK(run::clipped_fraction(ten, 7) == 0.3);
  CHECK(std::isinf(run::unclipped_quantile({1, std::nan("")}, 1.0)));
  CHECK(run::clipped_fraction({1, std::nan("")}, 1e300) == 0.5);
  CHECK_THROWS(run::unclipped_quantile({}, 0.5));
  CHECK_THROWS(run::unclipped_quantile({1}, 0));
  CHECK_THROWS(run::unclipped_quantile({1}, 1.5));
}

TEST_CASE("the pilot's norms are the messages the private server clips") {
  const config::LoadedConfig c = config::load_config_text(kPilot, "pilot.yaml", "pilot", {});
  const run::ClipPilot pilot = run::run_clip_pilot(c.spec, 1, 1, 2);
  CHECK(pilot.regions == 2);
  REQUIRE(pilot.norms.size() == 12);  // one message per agent in round 0
  const double root_p = std::sqrt(2.0);
  for (const double gamma : {0.25, 0.5, 0.75}) {
    const double s = root_p * run::unclipped_quantile(pilot.norms, gamma);
    // A bound a hair above the norm, so that rounding of S / sqrt(P) cannot flip a tie.
    const double bound = s * (1 + 1e-9);
    const long long expected = std::count_if(pilot.norms.begin(), pilot.norms.end(),
                                             [&](double x) { return x > bound / root_p; });
    const config::LoadedConfig priv = config::load_config_text(
        kPilot, "pilot.yaml", "pilot", {fmt::format("server.clip_norm={:.17g}", bound)});
    core::ThreadPool pool(2);
    const run::RunResult r = run::RunEngine(priv.spec, pool).run(0);
    INFO("gamma " << gamma);
    CHECK(r.messages == 12);
    CHECK(r.clipped == expected);
    CHECK(static_cast<double>(expected) <= std::floor((1 - gamma) * 12 + 1e-9));
  }
}

TEST_CASE("the pilot needs the DP-FTS-DE family's server") {
  const config::LoadedConfig ts = config::load_config_text(kPilot, "p.yaml", "p", {"algorithm=ts"});
  CHECK_THROWS_WITH(run::run_clip_pilot(ts.spec, 1, 1, 1), Contains("has no clip norm"));
}

TEST_CASE("a run that clips more than 10% of its messages with a fixed S warns") {
  const config::LoadedConfig c = config::load_config_text(kPilot, "p.yaml", "p", {});
  CHECK(run::clipping_warning(c.spec, 0.1).empty());
  const std::string w = run::clipping_warning(c.spec, 0.15);
  CHECK_THAT(w, Contains("15.0% of the messages were clipped") &&
                    Contains("server.clip_norm = 11") && Contains("fbosim calibrate-clip") &&
                    Contains("server.clipping: adaptive"));
  // Adaptive clipping aims at its own share; without DP nothing is clipped.
  const config::LoadedConfig a =
      config::load_config_text(kPilot, "p.yaml", "p", {"server.clipping=adaptive"});
  CHECK(run::clipping_warning(a.spec, 0.5).empty());
  const config::LoadedConfig f =
      config::load_config_text(kPilot, "p.yaml", "p", {"algorithm=fts_de"});
  CHECK(run::clipping_warning(f.spec, 0.5).empty());
}

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "../grid_domain.hpp"
#include "algorithms/agents/fts_de_agent.hpp"

using namespace fbosim;
using agents::ExplorationSchedule;
using testing::grid_domain;

namespace {
std::shared_ptr<const agents::SharedContext> context(const core::Domain& d, int M, int P,
                                                     double l = 0.05) {
  core::RngStream rng(11);
  return std::make_shared<const agents::SharedContext>(
      d, rff::RandomFeatures::draw(d.dim, M, l, 1.0, rng), de::Partition(d.dim, P));
}
}  // namespace

TEST_CASE("p_t schedules: p_1 = 0 and the closed forms") {
  using agents::local_probability;
  for (auto s :
       {ExplorationSchedule::inv_sqrt, ExplorationSchedule::inv, ExplorationSchedule::inv_square})
    CHECK(local_probability(s, 1) == 0.0);
  CHECK(local_probability(ExplorationSchedule::inv_sqrt, 4) == Approx(0.5));
  CHECK(local_probability(ExplorationSchedule::inv, 4) == Approx(0.75));
  CHECK(local_probability(ExplorationSchedule::inv_square, 4) == Approx(1 - 1.0 / 16));
  CHECK(local_probability(ExplorationSchedule::local, 1) == 1.0);
  CHECK_THROWS_WITH(agents::parse_exploration_schedule("fast"), Catch::Contains("fast"));
}

TEST_CASE(
    "first_negligible_round (footnote 13): the first t with 1 - p_t < threshold, by the closed "
    "forms and by a scan of every round") {
  using agents::first_negligible_round;
  using S = ExplorationSchedule;
  // 1 - p_t = 1/sqrt(t) < tau  <=>  t > 1/tau^2; 1/t < tau <=> t > 1/tau; 1/t^2 < tau <=> t >
  // 1/sqrt(tau) (thresholds away from the boundaries, where rounding would decide).
  for (const double tau : {0.9, 0.45, 0.3, 0.15, 0.07, 0.013}) {
    INFO("tau = " << tau);
    CHECK(first_negligible_round(S::inv_sqrt, tau, 1 << 30) ==
          static_cast<int>(std::floor(1 / (tau * tau))) + 1);
    CHECK(first_negligible_round(S::inv, tau, 1 << 30) ==
          static_cast<int>(std::floor(1 / tau)) + 1);
    CHECK(first_negligible_round(S::inv_square, tau, 1 << 30) ==
          static_cast<int>(std::floor(1 / std::sqrt(tau))) + 1);
    CHECK(first_negligible_round(S::local, tau, 1 << 30) == 1);  // never the server
  }
  // The bisection equals a scan of every round, boundaries included (1/sqrt(4) = 0.5 is not
  // below 0.5; 1/sqrt(5) is), and gives limit + 1 when no round up to the limit is below.
  for (const S s : {S::inv_sqrt, S::inv, S::inv_square})
    for (const double tau : {1.0, 0.5, 0.25, 0.2, 0.1, 1.0 / 60, 1e-3})
      for (const int limit : {0, 1, 3, 4, 5, 60, 1000}) {
        int scan = limit + 1;
        for (int t = 1; t <= limit; ++t)
          if (1.0 - local_probability(s, t) < tau) {
            scan = t;
            break;
          }
        INFO(agents::to_string(s) << " tau = " << tau << " limit = " << limit);
        CHECK(first_negligible_round(s, tau, limit) == scan);
      }
  CHECK(first_negligible_round(S::inv_sqrt, 0.5, 100) == 5);
  CHECK(first_negligible_round(S::inv_sqrt, 1e-9, std::numeric_limits<int>::max() - 1) ==
        std::numeric_limits<int>::max());  // none: 1/sqrt(t) >= 2.2e-5 for every int t
}

TEST_CASE("initial points lie in the agent's sub-region, or anywhere without DE") {
  auto ctx = context(grid_domain(300), 20, 3);
  agents::AgentOptions o;
  o.init_points = 25;
  core::RngStream rng(1);
  for (int id = 0; id < 6; ++id) {
    const agents::FtsDeAgent a(id, ctx, o);
    CHECK(a.region() == id % 3);
    for (const auto& x : a.initial_points(rng)) CHECK(ctx->partition.region_of(x) == a.region());
  }
  o.init_in_region = false;
  const agents::FtsDeAgent a(0, ctx, o);
  int outside = 0;
  for (const auto& x : a.initial_points(rng)) outside += ctx->partition.region_of(x) != 0;
  CHECK(outside > 0);
}

TEST_CASE("a server-guided step is the argmax over the grid of phi(x) . omega^(i[x])") {
  const core::Domain d = grid_domain(400);
  auto ctx = context(d, 30, 2);
  agents::AgentOptions o;  // inv_sqrt: p_1 = 0, so round 1 always follows the server
  core::RngStream rng(2);
  for (int trial = 0; trial < 10; ++trial) {
    agents::FtsDeAgent a(0, ctx, o);
    protocol::RegionSamples b;
    b.omegas = {rng.normal_vector(30), rng.normal_vector(30)};
    // Independent brute force with the plain (non-rotated) feature map.
    const Eigen::MatrixXd phi = ctx->features.features(d.grid);
    double best = -1e300;
    double best_x = -1;
    for (Eigen::Index j = 0; j < d.grid.rows(); ++j) {
      const Eigen::VectorXd x = d.grid.row(j).transpose();
      const double v = phi.row(j).dot(b.omegas[ctx->partition.region_of(x)]);
      if (v > best) {
        best = v;
        best_x = x[0];
      }
    }
    const core::RngFactory streams(1, 0);
    const protocol::Proposal p = a.propose(1, b, rng, streams);
    CHECK(std::string(p.source) == "server");
    CHECK(p.x[0] == Approx(best_x).margin(1e-12));
  }
}

TEST_CASE("the server step's argmax is remembered per broadcast, also across threads") {
  const core::Domain d = grid_domain(300);
  auto ctx = context(d, 25, 3);
  core::RngStream rng(5);
  std::vector<std::vector<Eigen::VectorXd>> broadcasts;
  std::vector<Eigen::Index> expected;
  for (int b = 0; b < 2; ++b) {
    broadcasts.push_back({rng.normal_vector(25), rng.normal_vector(25), rng.normal_vector(25)});
    Eigen::Index best = -1;  // brute force on the grid features, region by region
    double best_v = -1e300;
    for (int i = 0; i < 3; ++i)
      for (Eigen::Index j = 0; j < d.grid.rows(); ++j)
        if (ctx->partition.region_of(d.grid.row(j).transpose()) == i &&
            ctx->grid_features.row(j).dot(broadcasts[b][i]) > best_v) {
          best_v = ctx->grid_features.row(j).dot(broadcasts[b][i]);
          best = j;
        }
    expected.push_back(best);
  }
  // Alternating broadcasts from 4 threads: never the other broadcast's answer.
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      for (int r = 0; r < 200; ++r) {
        const int b = (r + k) % 2;
        wrong[k] += ctx->region_argmax(broadcasts[b]) != expected[b];
      }
    });
  for (auto& t : threads) t.join();
  for (int k = 0; k < 4; ++k) CHECK(wrong[k] == 0);
  std::vector<Eigen::VectorXd> nan = {Eigen::VectorXd::Constant(25, std::nan("")),
                                      Eigen::VectorXd::Constant(25, std::nan("")),
                                      Eigen::VectorXd::Constant(25, std::nan(""))};
  CHECK(ctx->region_argmax(nan) == -1);
}

TEST_CASE("standard TS (schedule local) never follows the server and finds the maximum") {
  const core::Domain d = grid_domain(200);
  auto ctx = context(d, 20, 1);
  agents::AgentOptions o;
  o.schedule = ExplorationSchedule::local;
  o.local.hyper = {0.1, 1.0, 1e-4};
  o.local.features = 200;
  agents::FtsDeAgent a(0, ctx, o);
  auto f = [](double x) { return std::exp(-std::pow((x - 0.7) / 0.1, 2)); };
  // Observations straddle the peak (x = 0.7 lies between grid rows 135 and 145) so that the
  // best point is not a repeat, which the [code] rule would replace by a random point.
  for (int j = 5; j < 200; j += 10) {
    const Eigen::VectorXd x = d.grid.row(j).transpose();
    a.observe(x, f(x[0]));
  }
  protocol::RegionSamples b;
  b.omegas = {Eigen::VectorXd::Zero(20)};
  core::RngStream rng(3);
  const core::RngFactory streams(1, 0);
  int near = 0;
  for (int k = 0; k < 20; ++k) {
    const protocol::Proposal p = a.propose(5 + k, b, rng, streams);
    CHECK(std::string(p.source) == "local");
    near += std::abs(p.x[0] - 0.7) < 0.1;
  }
  CHECK(near >= 15);
}

TEST_CASE("no broadcast, or an empty one, makes the step local") {
  auto ctx = context(grid_domain(100), 10, 2);
  agents::AgentOptions o;
  agents::FtsDeAgent a(0, ctx, o);
  core::RngStream rng(4);
  for (const auto& x : a.initial_points(rng)) a.observe(x, 0.5);
  const core::RngFactory streams(1, 0);
  CHECK(std::string(a.propose(1, protocol::NoBroadcast{}, rng, streams).source) == "local");
  CHECK(std::string(a.propose(2, protocol::RegionSamples{}, rng, streams).source) == "local");
}

TEST_CASE("hyperparameters are refitted only at multiples of refit_every") {
  core::Domain d;
  d.dim = 1;
  auto ctx = context(d, 20, 1);
  agents::AgentOptions o;
  o.schedule = ExplorationSchedule::local;
  o.local.fit_hyper = true;
  o.local.fit.restarts = 1;
  o.local.hyper = {1.0, 0.1, 1e-6};
  agents::FtsDeAgent a(0, ctx, o);
  core::RngStream rng(5);
  for (int k = 0; k < 4; ++k) {
    const double x = rng.uniform();
    a.observe(Eigen::VectorXd::Constant(1, x), std::sin(12 * x));
  }
  const core::RngFactory streams(1, 0);
  a.propose(1, protocol::NoBroadcast{}, rng, streams);
  CHECK(a.hyper().lengthscale == 1.0);  // 4 observations: no fit scheduled yet
  a.observe(Eigen::VectorXd::Constant(1, 0.5), std::sin(6.0));
  a.propose(2, protocol::NoBroadcast{}, rng, streams);
  CHECK(a.hyper().lengthscale != 1.0);  // 5 observations: fitted
}

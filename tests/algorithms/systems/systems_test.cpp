#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

#include "../grid_domain.hpp"
#include "algorithms/agents/fts_source_agent.hpp"
#include "algorithms/agents/fts_target_agent.hpp"
#include "algorithms/server/privatized_mechanism.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "algorithms/systems/fts_target_system.hpp"

using namespace fbosim;
using testing::grid_domain;

namespace {
// A history of n points whose x encodes its index (x_k = k / 100, y_k = k).
protocol::History indexed_history(int n) {
  protocol::History h{Eigen::MatrixXd(n, 1), Eigen::VectorXd(n)};
  for (int k = 0; k < n; ++k) {
    h.X(k, 0) = k / 100.0;
    h.y[k] = k;
  }
  return h;
}
}  // namespace

TEST_CASE("messages condition on the BO steps of a TS history, the authors' pairing repeats x") {
  systems::FtsTargetConfig c;
  c.history = systems::SourceHistory::ts;
  c.history_init = 3;
  c.history_points = 6;
  const protocol::History h = indexed_history(9);  // 3 initial + 6 BO points
  const protocol::History aligned = systems::FtsTargetSystem(c).message_history(h);
  REQUIRE(aligned.y.size() == 6);
  for (int k = 0; k < 6; ++k) {
    CHECK(aligned.y[k] == 3 + k);
    CHECK(aligned.X(k, 0) == (3 + k) / 100.0);
  }
  // [CODE-FTS] every x stored twice: params[:T] = x_1 x_1 x_2 x_2 ... against values[:T].
  c.pairing = systems::HistoryPairing::authors;
  const protocol::History authors = systems::FtsTargetSystem(c).message_history(h);
  const double expected_x[] = {3, 3, 4, 4, 5, 5};
  for (int k = 0; k < 6; ++k) {
    CHECK(authors.y[k] == 3 + k);
    CHECK(authors.X(k, 0) == expected_x[k] / 100.0);
  }
  c.history = systems::SourceHistory::random;  // random histories keep every point
  CHECK(systems::FtsTargetSystem(c).message_history(h).y.size() == 9);
}

TEST_CASE("the history request: t_n random points, or init + t_n TS steps") {
  systems::FtsTargetConfig c;
  c.history_points = 40;
  auto r = systems::FtsTargetSystem(c).history_request();
  REQUIRE(r);
  CHECK(r->init_points == 40);
  CHECK(r->rounds == 0);
  c.history = systems::SourceHistory::ts;
  c.history_init = 3;
  c.history_points = 50;
  r = systems::FtsTargetSystem(c).history_request();
  CHECK(r->init_points == 3);
  CHECK(r->rounds == 50);
  const core::Domain d = grid_domain(30);
  core::RngStream rng(1);
  CHECK(r->policy(4, d)->initial_points(rng).size() == 3);
}

TEST_CASE("a target-agent run: run r's target is agent r mod target.agents, the rest report") {
  systems::FtsTargetConfig c;
  c.features = 16;
  c.target_agents = 3;
  const systems::FtsTargetSystem system(c);
  const core::Domain d = grid_domain(50);
  std::vector<protocol::History> histories(5, indexed_history(4));
  for (int run : {0, 1, 2, 3, 4}) {
    const core::RngFactory streams(7, static_cast<std::uint64_t>(run));
    const protocol::RunParts parts = system.build({run, 5, &d, &streams, &histories});
    REQUIRE(parts.agents.size() == 5);
    const int target = run % 3;
    CHECK(parts.measured == std::vector<int>{target});
    REQUIRE(parts.server);
    CHECK(parts.server->event(5).as<privacy::NoOp>());
    for (int n = 0; n < 5; ++n) {
      const auto* t = dynamic_cast<const agents::FtsTargetAgent*>(parts.agents[n].get());
      const auto* s = dynamic_cast<const agents::FtsSourceAgent*>(parts.agents[n].get());
      CHECK((t != nullptr) == (n == target));
      CHECK((s != nullptr) == (n != target));
      CHECK(parts.agents[n]->optimises() == (n == target));
    }
  }
  CHECK_THROWS(system.build({0, 5, &d, nullptr, nullptr}));  // no histories
}

TEST_CASE("rff.shared_draw: per_experiment gives every run run 0's shared features") {
  // An RGPE source's message (nu, Sigma^-1) is a function of the shared features and its
  // history only, so equal messages mean equal features.
  systems::FtsTargetConfig c;
  c.name = "rgpe";
  c.features = 16;
  const core::Domain d = grid_domain(50);
  std::vector<protocol::History> histories(3, indexed_history(4));
  auto message = [&](const systems::FtsTargetConfig& config, int run) {
    const core::RngFactory streams(7, static_cast<std::uint64_t>(run));
    const protocol::RunParts parts =
        systems::FtsTargetSystem(config).build({run, 3, &d, &streams, &histories});
    core::RngStream rng(1);
    const auto m = parts.agents[1]->report(0, rng);
    REQUIRE(m);
    return std::get<protocol::GpSummary>(*m).nu;
  };
  REQUIRE(c.shared_draw == systems::SharedDraw::per_run);  // the default
  const Eigen::VectorXd run0 = message(c, 0);
  CHECK(message(c, 1) != run0);
  c.shared_draw = systems::SharedDraw::per_experiment;
  CHECK(message(c, 0) == run0);  // run 0 keeps its draw
  CHECK(message(c, 1) == run0);
  CHECK(message(c, 5) == run0);
}

TEST_CASE("the DP-FTS-DE presets: no server for TS, the DP wrapper only with server.dp") {
  const core::Domain d = grid_domain(40);
  const core::RngFactory streams(1, 0);
  systems::FtsDeConfig c;
  c.subregions = 2;
  c.features = 8;
  const auto build = [&](const systems::FtsDeConfig& cfg) {
    return systems::FtsDeSystem(cfg).build({0, 6, &d, &streams, nullptr});
  };
  protocol::RunParts parts = build(c);
  CHECK(parts.measured.size() == 6);
  CHECK(dynamic_cast<const server::PrivatizedMechanism*>(parts.server.get()));
  CHECK(systems::FtsDeSystem(c).is_private(6));
  CHECK(parts.server->event(6) == systems::FtsDeSystem(c).possible_events(6)[0]);
  c.dp = false;
  parts = build(c);
  CHECK(dynamic_cast<const server::PlainMechanism*>(parts.server.get()));
  CHECK_FALSE(systems::FtsDeSystem(c).is_private(6));
  c.server = false;
  CHECK_FALSE(build(c).server);
  CHECK(systems::FtsDeSystem(c).possible_events(6).empty());
}

TEST_CASE(
    "server.budget and server.stop_p reach the privacy plan, `aggregating` joins server.csv only "
    "with one of them") {
  systems::FtsDeConfig c;
  c.features = 8;
  const auto plan = [&](const systems::FtsDeConfig& cfg) {
    return systems::FtsDeSystem(cfg).privacy_plan(6);
  };
  const auto has_aggregating = [](const systems::FtsDeConfig& cfg) {
    const auto cols = systems::FtsDeSystem(cfg).server_columns();
    return std::find(cols.begin(), cols.end(), protocol::StatColumn::aggregating) != cols.end();
  };
  protocol::PrivacyPlan parts = plan(c);
  CHECK(parts.server_rounds == std::numeric_limits<int>::max());
  CHECK_FALSE(parts.budget);
  CHECK_FALSE(has_aggregating(c));
  c.stop.budget = 3.5;
  parts = plan(c);
  CHECK(parts.budget == 3.5);
  CHECK(parts.server_rounds == std::numeric_limits<int>::max());
  CHECK(has_aggregating(c));
  // Server round t's broadcast is followed in round t + 1 with probability 1 - p_{t+1}:
  // inv_sqrt, 1/sqrt(t + 1) < 0.15 from t + 1 = 45 (1/0.15^2 = 44.4), so rounds 0..43 aggregate;
  // inv, 1/(t + 1) < 1/60.5 from t + 1 = 61.
  c.stop = {};
  c.stop.stop_p = 0.15;
  c.agent.schedule = agents::ExplorationSchedule::inv_sqrt;
  CHECK(plan(c).server_rounds == 44);
  CHECK(has_aggregating(c));
  c.stop.stop_p = 1 / 60.5;
  c.agent.schedule = agents::ExplorationSchedule::inv;
  CHECK(plan(c).server_rounds == 60);
  c.stop.stop_p = 1.0;  // 1 - p_1 = 1 is not below 1; 1 - p_2 is
  CHECK(plan(c).server_rounds == 1);
}

TEST_CASE("each system estimates itself, built in code without its registry entry") {
  // Algorithm::estimate (issue 40): no callback of a registry entry casting the algorithm back
  // to its own system. FTS-DE's first memory term: agents x 2 M^2 doubles (the agents'
  // posteriors over the M shared features), 10 x 2 x 50^2 x 8 bytes.
  protocol::ExperimentFacts facts;
  facts.agents = 10;
  facts.dimension = 2;
  facts.runs = 2;
  facts.rounds = 5;
  systems::FtsDeConfig de;
  de.features = 50;
  protocol::ResourceEstimate e;
  systems::FtsDeSystem(de).estimate(facts, e);
  REQUIRE_FALSE(e.memory.empty());
  CHECK(e.memory[0].amount == 10.0 * 2 * 50 * 50 * 8);
  CHECK(e.memory[0].what.find("rff.features = 50") != std::string::npos);
  CHECK_FALSE(e.work.empty());
  // RGPE adds its ranking-loss samples' work and memory; TAF, the same system otherwise, not.
  const auto terms = [&](const char* name) {
    systems::FtsTargetConfig c;
    c.name = name;
    protocol::ResourceEstimate r;
    systems::FtsTargetSystem(c).estimate(facts, r);
    return r.work.size() + r.memory.size();
  };
  CHECK(terms("rgpe") == terms("taf") + 2);
  CHECK(terms("fts_target") == terms("taf"));
  // The base adds nothing (an algorithm without an estimate: only the experiment's terms).
  struct Bare final : protocol::Algorithm {
    std::string name() const override { return "bare"; }
    protocol::RunParts build(const protocol::RunInputs&) const override { return {}; }
    std::vector<privacy::DpEvent> possible_events(int) const override { return {}; }
    std::vector<privacy::DpEvent> run_events(int, int) const override { return {}; }
    protocol::PrivacyPlan privacy_plan(int) const override { return {}; }
    std::vector<protocol::StatColumn> server_columns() const override { return {}; }
  };
  protocol::ResourceEstimate none;
  Bare().estimate(facts, none);
  CHECK(none.memory.empty());
  CHECK(none.work.empty());
}

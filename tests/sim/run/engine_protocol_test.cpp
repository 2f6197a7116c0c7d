// The engine against the protocol contracts alone, with an algorithm written for the test:
// events released before round 0, every round and after the last round are composed in order;
// agents that only report never query; only the measured agents enter the summary matrices.
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>

#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/trace_sink.hpp"

using namespace fbosim;
using namespace fbosim::config;
using namespace fbosim::run;

namespace {
// Queries 0.1 * round (round 0: one point at 0.5) and reports the round as a 1-vector; or,
// when it only reports, sends one message after round 0.
class Scripted final : public protocol::AgentPolicy {
 public:
  explicit Scripted(bool optimises) : optimises_(optimises) {}
  std::vector<Eigen::VectorXd> initial_points(core::RngStream&) const override {
    return {Eigen::VectorXd::Constant(1, 0.5)};
  }
  protocol::Proposal propose(int round, const protocol::Broadcast& b, core::RngStream&,
                             const core::RngFactory&) override {
    if (const auto* p = std::get_if<protocol::PeerMessages>(&b)) last_received = p->messages.size();
    return {Eigen::VectorXd::Constant(1, grid_point(round)), "local"};
  }
  void observe(const Eigen::VectorXd&, double) override { ++observed; }
  std::optional<protocol::Message> report(int round, core::RngStream&) override {
    if (!optimises_ && round > 0) return std::nullopt;
    return protocol::RffSample{Eigen::VectorXd::Constant(1, round)};
  }
  bool optimises() const override { return optimises_; }
  static double grid_point(int round) { return (2.0 * round) / 199.0; }  // rows of a 200 grid

  int observed = 0;
  std::size_t last_received = 0;

 private:
  bool optimises_;
};

// Forwards the messages and spends a Laplace(1) event (epsilon 1) per round.
class LaplaceForward final : public protocol::Mechanism {
 public:
  protocol::Release release(const protocol::Inbox& in, int, core::RngStream&) const override {
    protocol::Release r{protocol::PeerMessages{in}, {}, event(0), {}};
    for (const auto& m : in) r.stats.received += m != nullptr;
    return r;
  }
  privacy::DpEvent event(int) const override { return privacy::DpEvent::laplace(1.0); }
};

class Scripts final : public protocol::Algorithm {
 public:
  std::string name() const override { return "scripts"; }
  protocol::RunParts build(const protocol::RunInputs& in) const override {
    protocol::RunParts p;
    for (int n = 0; n < in.agents; ++n) p.agents.push_back(std::make_unique<Scripted>(n < 2));
    p.server = std::make_unique<LaplaceForward>();
    p.setup_events = {privacy::DpEvent::epsilon_delta(0.5, 1e-7)};
    p.final_events = {privacy::DpEvent::laplace(4.0)};  // epsilon 0.25
    p.measured = {1};
    return p;
  }
  std::vector<privacy::DpEvent> possible_events(int) const override {
    return {privacy::DpEvent::epsilon_delta(0.5, 1e-7), privacy::DpEvent::laplace(1.0)};
  }
  std::vector<privacy::DpEvent> run_events(int, int rounds) const override {
    return {privacy::DpEvent::epsilon_delta(0.5, 1e-7),
            privacy::DpEvent::self_composed(privacy::DpEvent::laplace(1.0), rounds),
            privacy::DpEvent::laplace(4.0)};
  }
  protocol::PrivacyPlan privacy_plan(int) const override {
    protocol::PrivacyPlan plan;
    plan.setup = {privacy::DpEvent::epsilon_delta(0.5, 1e-7)};
    plan.round = privacy::DpEvent::laplace(1.0);
    plan.final = {privacy::DpEvent::laplace(4.0)};
    return plan;
  }
  std::vector<protocol::StatColumn> server_columns() const override {
    return {protocol::StatColumn::received};
  }
};
}  // namespace

TEST_CASE("the engine composes setup, round and final events and runs any algorithm's parts") {
  LoadedConfig c = load_config_text(
      "algorithm: fts\nrounds: 5\nobjective: {family: gp_grid, grid_points: 200}\n"
      "agents: {count: 3}\n"
      "server: {accountant: basic, delta: 1.0e-5}\n",
      "t.yaml", "t", {});
  c.spec.system = std::make_shared<Scripts>();
  core::ThreadPool pool(2);
  const RunResult r = RunEngine(c.spec, pool).run(0);
  // Setup before round 0, then one epsilon-1 release after each of rounds 0..4; the last entry
  // (round 5, summary.csv's last row) includes the final event too.
  for (int t = 0; t < 5; ++t) CHECK(r.epsilon[t] == Approx(0.5 + t));
  CHECK(r.epsilon[5] == Approx(0.5 + 5 + 0.25));
  CHECK(r.final_epsilon == r.epsilon[5]);
  REQUIRE(r.server.size() == 5);
  CHECK(r.server_columns == std::vector<std::string>{"received"});
  CHECK(r.server[0].stats == std::vector<std::string>{"3"});  // agent 2 reports once
  CHECK(r.server[1].stats == std::vector<std::string>{"2"});
  // Agent 2 never queries: no trace rows; only agent 1 is measured.
  std::istringstream rows(r.trace_csv);
  std::string line;
  int count = 0;
  while (std::getline(rows, line)) {
    ++count;
    CHECK(line.rfind("0,2,", 0) != 0);
  }
  CHECK(count == 2 * 6);
  CHECK(r.best_f.cols() == 1);
  CHECK(r.best_f.rows() == 6);
}

TEST_CASE("an event the accountant cannot account for stops the run, naming the event") {
  LoadedConfig c = load_config_text(
      "algorithm: fts\nobjective: {family: gp_grid, grid_points: 200}\n", "t.yaml", "t", {});
  // The moments accountant refuses EpsilonDelta: the setup event fails before round 0.
  c.spec.system = std::make_shared<Scripts>();
  c.spec.agents = 3;
  core::ThreadPool pool(1);
  CHECK_THROWS_WITH(RunEngine(c.spec, pool).run(0),
                    Catch::Contains("Laplace") || Catch::Contains("EpsilonDelta"));
}

namespace {
// Scripts plus a final release: it queries the objective at 0.5 twice (stream "release") and
// releases one row per agent with an EpsilonDelta(1, 1e-6) event each.
class Releasing final : public protocol::Algorithm {
 public:
  std::string name() const override { return "releasing"; }
  protocol::RunParts build(const protocol::RunInputs& in) const override {
    protocol::RunParts p;
    for (int n = 0; n < in.agents; ++n) p.agents.push_back(std::make_unique<Scripted>(true));
    p.final_events = {privacy::DpEvent::laplace(4.0)};  // epsilon 0.25, composed first
    const int agents = in.agents;
    p.final_release = [agents](const protocol::ReleaseInputs& rin) {
      protocol::FinalRelease out;
      for (int n = 0; n < agents; ++n) {
        core::RngStream rng = rin.streams->stream("release", static_cast<std::uint64_t>(n));
        const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 0.5);
        const protocol::Observation a = rin.query(n, x, rng), b = rin.query(n, x, rng);
        protocol::ReleaseRow row;
        row.agent = n;
        row.quantity = "hyperparameter";
        row.mechanism = "test";
        row.epsilon = 1;
        row.delta = 1e-6;
        row.value = a.y - b.y;  // two noisy looks at the same point differ
        row.point = x;
        row.f = rin.evaluate(n, x);
        row.regret = *rin.optimum(n) - *row.f;
        row.evaluations = 2;
        out.rows.push_back(row);
        out.events.push_back(privacy::DpEvent::epsilon_delta(1, 1e-6));
      }
      return out;
    };
    for (int n = 0; n < in.agents; ++n) p.measured.push_back(n);
    return p;
  }
  std::vector<privacy::DpEvent> possible_events(int) const override {
    return {privacy::DpEvent::epsilon_delta(1, 1e-6), privacy::DpEvent::laplace(4.0)};
  }
  std::vector<privacy::DpEvent> run_events(int agents, int) const override {
    std::vector<privacy::DpEvent> out(static_cast<std::size_t>(agents),
                                      privacy::DpEvent::epsilon_delta(1, 1e-6));
    out.push_back(privacy::DpEvent::laplace(4.0));
    return out;
  }
  protocol::PrivacyPlan privacy_plan(int agents) const override {
    protocol::PrivacyPlan plan;
    plan.final = {privacy::DpEvent::laplace(4.0)};  // the final event, then one per agent
    plan.final.insert(plan.final.end(), static_cast<std::size_t>(agents),
                      privacy::DpEvent::epsilon_delta(1, 1e-6));
    return plan;
  }
  std::vector<protocol::StatColumn> server_columns() const override { return {}; }
  bool releases_values() const override { return true; }
};
}  // namespace

TEST_CASE("a final release runs after the last round: its events, its queries, release.csv rows") {
  LoadedConfig c = load_config_text(
      "algorithm: fts\nrounds: 3\nobjective: {family: gp_grid, grid_points: 200, noise_var: 0.01}\n"
      "agents: {count: 2}\nserver: {accountant: basic, delta: 1.0e-5}\n",
      "t.yaml", "t", {});
  c.spec.system = std::make_shared<Releasing>();
  core::ThreadPool pool(2);
  const RunEngine engine(c.spec, pool);
  const RunResult r = engine.run(0);
  for (int t = 0; t < 3; ++t) CHECK(r.epsilon[t] == 0);  // nothing before the end
  // The last round's entry (summary.csv's last row) holds the final release.
  CHECK(r.epsilon[3] == Approx(0.25 + 2));
  CHECK(r.final_epsilon == r.epsilon[3]);
  std::istringstream rows(r.release_csv);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(rows, line)) lines.push_back(line);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("0,0,hyperparameter,test,1,1e-06,,", 0) == 0);
  CHECK(lines[1].rfind("0,1,hyperparameter,test,1,1e-06,,", 0) == 0);
  CHECK(lines[0].substr(lines[0].size() - 2) == ",2");
  // Deterministic: the same run again gives the same rows.
  CHECK(engine.run(0).release_csv == r.release_csv);
  CHECK(release_csv_header(1) ==
        "run,agent,quantity,mechanism,release_epsilon,release_delta,sensitivity,value,nonprivate,"
        "x0,f,regret,evaluations\n");
}

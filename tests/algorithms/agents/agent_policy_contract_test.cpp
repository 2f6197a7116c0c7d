// One body run over every AgentPolicy (design note "protocols": contract tests).
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <set>
#include <string>

#include "algorithms/agents/fts_de_agent.hpp"
#include "algorithms/agents/fts_source_agent.hpp"
#include "algorithms/agents/fts_target_agent.hpp"
#include "algorithms/agents/ts_agent.hpp"

using namespace fbosim;

namespace {
struct Domains {
  core::Domain grid, box;
  Domains() {
    grid.dim = 1;
    grid.grid = Eigen::VectorXd::LinSpaced(200, 0.0, 1.0);
    box.dim = 2;
  }
};
const Domains& domains() {
  static const Domains d;
  return d;
}

std::shared_ptr<const agents::SharedContext> context(const core::Domain& d, int P) {
  core::RngStream rng(31);
  return std::make_shared<const agents::SharedContext>(
      d, rff::RandomFeatures::draw(d.dim, 16, 0.1, 1.0, rng), de::Partition(d.dim, P));
}

agents::LocalTsOptions small_local() {
  agents::LocalTsOptions o;
  o.features = 20;
  o.hyper = {0.1, 1.0, 0.01};
  o.maximiser = {40, 2, 8};
  return o;
}

protocol::History history(const core::Domain& d, int n) {
  core::RngStream rng(8);
  protocol::History h{Eigen::MatrixXd(n, d.dim), Eigen::VectorXd(n)};
  for (int k = 0; k < n; ++k) {
    h.X.row(k) = d.is_grid() ? d.grid.row(static_cast<Eigen::Index>(rng.uniform_int(200)))
                             : Eigen::RowVectorXd(rng.uniform_matrix(1, d.dim));
    h.y[k] = h.X.row(k).sum();
  }
  return h;
}

struct Case {
  std::string name;
  std::function<std::unique_ptr<protocol::AgentPolicy>(const core::Domain&)> make;
  std::set<std::string> sources;  // what propose() may report
  int message;                    // -1: never reports; else the Message index it sends
};

std::vector<Case> cases() {
  return {
      {"FTS-DE agent (P = 2)",
       [](const core::Domain& d) {
         agents::AgentOptions o;
         o.init_points = 3;
         o.local = small_local();
         return std::make_unique<agents::FtsDeAgent>(1, context(d, 2), o);
       },
       {"local", "server"},
       0},
      {"standard TS agent",
       [](const core::Domain& d) { return std::make_unique<agents::TsAgent>(2, d, 3, small_local()); },
       {"local"},
       -1},
      {"FTS target agent",
       [](const core::Domain& d) {
         agents::FtsTargetOptions o;
         o.init_points = 3;
         o.local = small_local();
         return std::make_unique<agents::FtsTargetAgent>(0, context(d, 1), o);
       },
       {"local", "peer"},
       -1},
      {"FTS source agent, general setting",
       [](const core::Domain& d) {
         agents::FtsSourceOptions o;
         o.general = true;
         o.local = small_local();
         const protocol::History h = history(d, 5);
         return std::make_unique<agents::FtsSourceAgent>(3, context(d, 1), h, h, o);
       },
       {"local"},
       0},
  };
}

// A broadcast every policy may receive: region samples for FTS-DE, peer samples for FTS.
protocol::Broadcast broadcast(int round, core::RngStream& rng) {
  if (round % 2 == 0) return protocol::RegionSamples{{rng.normal_vector(16), rng.normal_vector(16)}};
  protocol::PeerMessages p;
  p.messages = {nullptr, std::make_shared<const protocol::Message>(
                             protocol::RffSample{rng.normal_vector(16)})};
  return p;
}

bool in_domain(const core::Domain& d, const Eigen::VectorXd& x) {
  if (x.size() != d.dim || !x.allFinite()) return false;
  if (d.is_grid()) return ((d.grid.rowwise() - x.transpose()).rowwise().norm().array() == 0).any();
  return (x.array() >= 0).all() && (x.array() <= 1).all();
}

// Runs 4 rounds of a policy and returns its queries (round 0's design included).
std::vector<Eigen::VectorXd> rounds(protocol::AgentPolicy& agent, const Case& c) {
  std::vector<Eigen::VectorXd> xs;
  const core::RngFactory streams(5, 1);
  core::RngStream init = streams.stream("agent.init"), gen(77);
  if (agent.optimises())
    for (const auto& x : agent.initial_points(init)) {
      xs.push_back(x);
      agent.observe(x, x.sum());
    }
  for (int t = 1; t <= 4; ++t) {
    core::RngStream rng = streams.stream("agent.step", 0, static_cast<std::uint64_t>(t));
    const protocol::Proposal p = agent.propose(t, broadcast(t, gen), rng, streams);
    CHECK(c.sources.count(p.source) == 1);
    xs.push_back(p.x);
    agent.observe(p.x, p.x.sum());
    core::RngStream msg = streams.stream("agent.message", 0, static_cast<std::uint64_t>(t));
    const auto m = agent.report(t, msg);
    CHECK(static_cast<bool>(m) == (c.message >= 0));
    if (m) CHECK(static_cast<int>(m->index()) == c.message);
  }
  return xs;
}
}  // namespace

TEST_CASE("agent policy contract: queries in the domain, declared sources and messages, "
          "determinism") {
  for (const Case& c : cases())
    for (const core::Domain* d : {&domains().grid, &domains().box}) {
      INFO(c.name << (d->is_grid() ? " on a grid" : " on a box"));
      const auto a = c.make(*d), b = c.make(*d);
      const std::vector<Eigen::VectorXd> xa = rounds(*a, c), xb = rounds(*b, c);
      REQUIRE(xa.size() == xb.size());
      for (std::size_t k = 0; k < xa.size(); ++k) {
        CHECK(in_domain(*d, xa[k]));
        CHECK(xa[k] == xb[k]);  // same streams, same queries
      }
    }
}

// One body run over every AgentPolicy (design note "protocols": contract tests).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "algorithms/agents/ensemble_target_agent.hpp"
#include "algorithms/agents/fts_de_agent.hpp"
#include "algorithms/agents/fts_source_agent.hpp"
#include "algorithms/agents/fts_target_agent.hpp"
#include "algorithms/agents/gp_ucb_agent.hpp"
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

// A finite set of points of the domain for GP-UCB: the grid itself, or 50 fixed points of the box.
Eigen::MatrixXd finite_points(const core::Domain& d) {
  if (d.is_grid()) return d.grid;
  core::RngStream rng(12);
  return rng.uniform_matrix(50, d.dim);
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
  bool summaries = false;         // its peers send GpSummary messages (RGPE / TAF)
};

agents::EnsembleOptions ensemble_options(agents::EnsembleOptions::Method method,
                                         ensemble::Variant variant) {
  agents::EnsembleOptions o;
  o.method = method;
  o.variant = variant;
  o.samples = 20;
  o.message_lambda = 0.01;
  o.local = small_local();
  return o;
}

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
       [](const core::Domain& d) {
         return std::make_unique<agents::TsAgent>(2, d, 3, small_local());
       },
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
      {"GP-UCB agent (finite candidates)",
       [](const core::Domain& d) {
         agents::GpUcbOptions o;
         o.init_points = 2;
         o.hyper = {0.1, 1.0, 0.01};
         const Eigen::MatrixXd p = finite_points(d);
         return std::make_unique<agents::GpUcbAgent>(4, p, p, o);
       },
       {"local"},
       -1},
      {"PO-GP-UCB modeler (a projection of the points, the authors' variance bonus)",
       [](const core::Domain& d) {
         agents::GpUcbOptions o;
         o.hyper = {0.1, 1.0, 0.01};
         o.bonus = agents::GpUcbOptions::Bonus::variance;
         const Eigen::MatrixXd p = finite_points(d);
         core::RngStream rng(21);
         const Eigen::MatrixXd Z = p * rng.normal_matrix(d.dim, 3) / std::sqrt(3.0);
         return std::make_unique<agents::GpUcbAgent>(5, Z, p, o);
       },
       {"local"},
       -1},
  };
}

std::vector<Case> ensemble_cases() {
  std::vector<Case> out;
  using M = agents::EnsembleOptions::Method;
  for (const auto method : {M::rgpe, M::taf})
    for (const auto variant : {ensemble::Variant::authors, ensemble::Variant::corrected})
      out.push_back({std::string(method == M::rgpe ? "RGPE" : "TAF") + " target agent (" +
                         (variant == ensemble::Variant::authors ? "authors" : "corrected") + ")",
                     [method, variant](const core::Domain& d) {
                       return std::make_unique<agents::EnsembleTargetAgent>(
                           0, context(d, 1), ensemble_options(method, variant));
                     },
                     {"ensemble"},
                     -1,
                     true});
  return out;
}

// A broadcast every policy may receive: region samples for FTS-DE, peer samples for FTS, or
// peer summaries (the posterior of 6 observations on the shared features) for RGPE / TAF.
protocol::Broadcast broadcast(int round, bool summaries, const core::Domain& d,
                              core::RngStream& rng) {
  if (round % 2 == 0)
    return protocol::RegionSamples{{rng.normal_vector(16), rng.normal_vector(16)}};
  protocol::PeerMessages p;
  p.messages.push_back(nullptr);
  for (int n = 1; n <= 2; ++n) {
    if (!summaries) {
      p.messages.push_back(
          std::make_shared<const protocol::Message>(protocol::RffSample{rng.normal_vector(16)}));
      continue;
    }
    const protocol::History h = history(d, 6);
    agents::FtsSourceOptions o;
    o.message = agents::SourceMessage::summary_with_incumbent;
    o.message_lambda = 0.01;
    agents::FtsSourceAgent source(n, context(d, 1), h, h, o);
    p.messages.push_back(std::make_shared<const protocol::Message>(*source.report(0, rng)));
  }
  return p;
}

bool in_domain(const core::Domain& d, const Eigen::VectorXd& x) {
  if (x.size() != d.dim || !x.allFinite()) return false;
  if (d.is_grid()) return ((d.grid.rowwise() - x.transpose()).rowwise().norm().array() == 0).any();
  return (x.array() >= 0).all() && (x.array() <= 1).all();
}

// Runs 4 rounds of a policy and returns its queries (round 0's design included).
std::vector<Eigen::VectorXd> rounds(protocol::AgentPolicy& agent, const Case& c,
                                    const core::Domain& d) {
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
    const protocol::Proposal p = agent.propose(t, broadcast(t, c.summaries, d, gen), rng, streams);
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

TEST_CASE(
    "agent policy contract: queries in the domain, declared sources and messages, "
    "determinism") {
  std::vector<Case> all = cases(), more = ensemble_cases();
  all.insert(all.end(), more.begin(), more.end());
  for (const Case& c : all)
    for (const core::Domain* d : {&domains().grid, &domains().box}) {
      INFO(c.name << (d->is_grid() ? " on a grid" : " on a box"));
      const auto a = c.make(*d), b = c.make(*d);
      const std::vector<Eigen::VectorXd> xa = rounds(*a, c, *d), xb = rounds(*b, c, *d);
      REQUIRE(xa.size() == xb.size());
      for (std::size_t k = 0; k < xa.size(); ++k) {
        CHECK(in_domain(*d, xa[k]));
        CHECK(xa[k] == xb[k]);  // same streams, same queries
      }
    }
}

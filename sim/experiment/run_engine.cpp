#include "sim/experiment/run_engine.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/agents/fts_de_agent.hpp"
#include "algorithms/privacy/accountant.hpp"
#include "algorithms/server/plain_aggregator.hpp"
#include "sim/core/event_queue.hpp"
#include "sim/experiment/interrupt.hpp"
#include "sim/experiment/network_model.hpp"

namespace fbosim::sim {

namespace {

// One agent's work in one round, written by its own pool task.
struct AgentRound {
  std::vector<Eigen::VectorXd> xs;
  std::vector<double> ys, fs;
  const char* source = "init";
  Eigen::VectorXd message;
};

std::unique_ptr<server::Mechanism> make_mechanism(const ExperimentSpec& spec) {
  if (spec.server.dp)
    return std::make_unique<server::DpMechanism>(spec.server.mechanism, spec.features);
  return std::make_unique<server::PlainAggregator>(spec.features);
}

void append_row(std::string& out, int run, int agent, int round, const Eigen::VectorXd& x, double y,
                double f, double best_f, double regret, const char* source) {
  fmt::format_to(std::back_inserter(out), "{},{},{}", run, agent, round);
  for (Eigen::Index k = 0; k < x.size(); ++k) fmt::format_to(std::back_inserter(out), ",{}", x[k]);
  fmt::format_to(std::back_inserter(out), ",{},{},{},", y, f, best_f);
  if (std::isfinite(regret)) fmt::format_to(std::back_inserter(out), "{}", regret);
  fmt::format_to(std::back_inserter(out), ",{}\n", source);
}

}  // namespace

RunEngine::RunEngine(const ExperimentSpec& spec, core::ThreadPool& pool)
    : spec_(spec), pool_(pool), family_(datasets::make_objective_family(spec.objective)) {
  if (family_->max_agents() > 0 && spec.agents > family_->max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: {} exceeds the {} agents objective.family "
                    "'{}' provides",
                    spec.agents, family_->max_agents(), spec.objective.family));
}

RunResult RunEngine::run(int run, const Progress& progress) const {
  const ExperimentSpec& s = spec_;
  const auto setup_start = std::chrono::steady_clock::now();
  const core::RngFactory rf(s.seed, static_cast<std::uint64_t>(run));
  const auto objectives = family_->make(s.agents, rf);
  const core::Domain& domain = objectives[0]->domain();
  core::RngStream shared_rng = rf.stream("rff.shared");
  auto ctx = std::make_shared<const agents::SharedContext>(
      domain, rff::RandomFeatures::draw(domain.dim, s.features, s.rff_lengthscale, 1.0, shared_rng),
      de::Partition(domain.dim, s.subregions));

  std::vector<agents::FtsDeAgent> agents;
  std::vector<int> agent_region;
  for (int n = 0; n < s.agents; ++n) {
    agents.emplace_back(n, ctx, s.agent);
    agent_region.push_back(agents.back().region());
  }
  const bool federated = s.algorithm == Algorithm::fts_de;
  const auto mechanism = make_mechanism(s);
  // accountants[0] is server.accountant; the others are server.accountants (extra columns).
  std::vector<std::unique_ptr<privacy::Accountant>> accountants;
  accountants.push_back(privacy::make_accountant(s.server.accountant));
  for (const std::string& a : s.server.accountants)
    accountants.push_back(privacy::make_accountant(a));
  // Epsilon of everything released so far, per accountant; recomputed only after a release
  // (tight accountants cost milliseconds per query).
  std::vector<double> spent(accountants.size(), 0.0);
  const double delta = s.delta();
  const de::WeightSchedule weights(s.weights);
  const NetworkModel network(s.network);

  RunResult result;
  result.run = run;
  result.dim = domain.dim;
  result.setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  result.best_f =
      Eigen::MatrixXd::Constant(s.rounds + 1, s.agents, -std::numeric_limits<double>::infinity());
  result.regret.resize(s.rounds + 1, s.agents);
  result.epsilon.assign(s.rounds + 1, 0.0);
  result.extra_epsilon.assign(s.server.accountants.size(), std::vector<double>(s.rounds + 1, 0.0));
  std::vector<double> best(s.agents, -std::numeric_limits<double>::infinity());
  std::vector<AgentRound> work(s.agents);
  server::Broadcast broadcast;
  core::EventQueue events;

  for (int t = 0; t <= s.rounds; ++t) {
    const bool aggregate = federated && t < s.rounds;  // the last broadcast would go unused
    pool_.parallel_for(s.agents, [&](std::size_t i) {
      check_interrupt();  // an evaluation can take seconds: Ctrl-C/SIGTERM stops between them
      const int n = static_cast<int>(i);
      auto& agent = agents[i];
      AgentRound& w = work[i];
      w.xs.clear();
      core::RngStream rng = rf.stream("agent.step", i, t);
      core::RngStream noise = rf.stream("agent.noise", i, t);
      if (t == 0) {
        core::RngStream init = rf.stream("agent.init", i);
        w.xs = agent.initial_points(init);
        w.source = "init";
      } else {
        agents::Proposal p = agent.propose(t, broadcast, rng, rf);
        w.xs.push_back(std::move(p.x));
        w.source = agents::to_string(p.source);
      }
      w.ys.assign(w.xs.size(), 0.0);
      w.fs.assign(w.xs.size(), 0.0);
      for (std::size_t k = 0; k < w.xs.size(); ++k) {
        if (k > 0) check_interrupt();
        const datasets::Objective::Evaluation e = objectives[i]->query(w.xs[k], noise);
        w.ys[k] = e.y;
        w.fs[k] = e.f;
        if (!std::isfinite(w.ys[k]) || !std::isfinite(w.fs[k]))
          throw std::runtime_error(fmt::format(
              "objective of agent {} returned a non-finite value (y = {}, f = {}) at x = [{}] "
              "in run {}, round {}",
              n, w.ys[k], w.fs[k], fmt::join(w.xs[k].data(), w.xs[k].data() + w.xs[k].size(), ", "),
              run, t));
        agent.observe(w.xs[k], w.ys[k]);
      }
      if (aggregate) {
        core::RngStream msg = rf.stream("agent.message", i, t);
        w.message = agent.message(msg);
      }
    });

    // Trace rows in agent order (deterministic for any thread count).
    for (int n = 0; n < s.agents; ++n) {
      const AgentRound& w = work[n];
      const auto opt = objectives[n]->optimum();
      for (std::size_t k = 0; k < w.xs.size(); ++k) {
        best[n] = std::max(best[n], w.fs[k]);
        const double regret = opt ? *opt - best[n] : std::numeric_limits<double>::quiet_NaN();
        append_row(result.trace_csv, run, n, t, w.xs[k], w.ys[k], w.fs[k], best[n], regret,
                   w.source);
      }
      result.best_f(t, n) = best[n];
      result.regret(t, n) = opt ? *opt - best[n] : std::numeric_limits<double>::quiet_NaN();
    }
    result.epsilon[t] = spent[0];
    for (std::size_t a = 1; a < accountants.size(); ++a) result.extra_epsilon[a - 1][t] = spent[a];

    if (aggregate) {
      // Replies travel as events; the round closes at the deadline or after the last reply.
      server::Messages arrived(s.agents, nullptr);
      const core::SimTime start = events.now();
      core::SimTime last = start;
      for (int n = 0; n < s.agents; ++n) {
        const auto delay = network.delay(rf, n, t);
        if (!delay) continue;  // dropped out this round
        const core::SimTime at = start + *delay;
        if (s.network.deadline > 0 && at > start + s.network.deadline) continue;  // too late
        last = std::max(last, at);
        events.schedule(at, [&arrived, &work, n] { arrived[n] = &work[n].message; });
      }
      const core::SimTime close = s.network.deadline > 0 ? start + s.network.deadline : last;
      server::Release release;
      events.schedule(close, [&] {
        core::RngStream srv = rf.stream("server", t);
        release = mechanism->release(arrived, weights.weights(t, agent_region, s.subregions), srv);
        if (!release.event) return;  // nothing private was released
        for (std::size_t a = 0; a < accountants.size(); ++a) {
          accountants[a]->compose(*release.event);
          spent[a] = accountants[a]->epsilon(delta).epsilon;
        }
      });
      events.run();
      broadcast = std::move(release.broadcast);
      ServerRow row{t,
                    static_cast<long long>(events.now()),
                    release.stats.received,
                    release.stats.selected,
                    release.stats.clipped,
                    release.stats.noise_std,
                    spent[0],
                    {spent.begin() + 1, spent.end()}};
      result.server.push_back(std::move(row));
      result.messages += release.stats.selected;
      result.clipped += release.stats.clipped;
    }
    if (progress) progress(t, s.rounds);
  }
  for (const auto& a : agents) result.fallbacks += a.fallback_count();
  return result;
}

}  // namespace fbosim::sim

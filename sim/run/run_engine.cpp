#include "sim/run/run_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/privacy/accountant.hpp"
#include "core/event_queue.hpp"
#include "sim/config/run_epsilon.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/run/agent_privacy.hpp"
#include "sim/run/async_engine.hpp"
#include "sim/run/checked_query.hpp"
#include "sim/run/network_model.hpp"
#include "sim/run/personal_stop.hpp"
#include "sim/run/privacy_ledger.hpp"
#include "sim/run/trace_sink.hpp"

namespace fbosim::run {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// What an agent stopped by its personal budget sees: nothing (its own TS steps).
const protocol::Broadcast kStoppedAgentSees{protocol::NoBroadcast{}};

// y and f of one query at round `round` (checked_query: a non-finite value is an error).
datasets::Objective::Evaluation evaluate(const datasets::Objective& objective,
                                         const Eigen::VectorXd& x, core::RngStream& noise,
                                         int agent, int run, int round) {
  return checked_query(objective, x, noise, agent, run, round, "round");
}

// The streams of the histories: their own seed, so that they never share a stream with a run.
core::RngFactory history_streams(std::uint64_t seed, int run) {
  return core::RngFactory(core::mix64(seed ^ core::hash_name("history")),
                          static_cast<std::uint64_t>(run));
}

}  // namespace

struct RunEngine::Run {
  // One agent's work in one round, written by its own pool task. (A member type: a type of the
  // anonymous namespace in a member of Run would warn in a unity build, -Wsubobject-linkage.)
  struct AgentRound {
    std::vector<Eigen::VectorXd> xs;
    std::vector<double> ys, fs;
    const char* source = "init";
    std::shared_ptr<const protocol::Message> message;
  };

  Run(int run, std::uint64_t seed, const config::NetworkSpec& net)
      : rf(seed, static_cast<std::uint64_t>(run)), network(net) {
    result.run = run;
  }
  core::RngFactory rf;
  NetworkModel network;
  std::vector<std::shared_ptr<const datasets::Objective>> objectives;
  protocol::RunParts parts;
  std::vector<protocol::StatColumn> columns;  // of server.csv
  // server.accountant (fills `epsilon`), then server.accountants (extra columns); made by
  // start(). Its epsilons are recomputed only after a release (tight accountants cost
  // milliseconds per query).
  std::optional<PrivacyLedger> ledger;
  // With ExperimentSpec::per_agent_ledgers, the agents' ledgers instead of `ledger`: the
  // epsilon columns are the largest agent's.
  std::optional<AgentPrivacy> agents;
  // A trust model other than `central` (issue 42): the agents' ledgers against an observer of
  // the broadcasts only (agents.csv's epsilon_broadcast); `agents` holds those against the
  // server.
  std::optional<AgentPrivacy> broadcast_view;
  // Personal budgets (personal.*): who has stopped being eligible.
  std::optional<PersonalStop> stop;
  // What the ledger composes, from the config alone (the parts built must agree).
  protocol::PrivacyPlan plan;
  // The server aggregates the messages of rounds 0 .. server_stop - 1 (rounds: every round; 0
  // without a server): the first round a stop rule (PrivacyPlan::server_rounds, budget) ends it.
  int server_stop = 0;
  std::vector<privacy::DpEvent> final_composed;  // after the last round, to check the plan
  std::vector<AgentRound> work;
  std::vector<double> best;  // per agent, best f so far
  protocol::Broadcast broadcast;
  core::EventQueue events;
  RunResult result;
};

RunEngine::RunEngine(const config::ExperimentSpec& spec, core::ThreadPool& pool)
    : spec_(spec), pool_(pool), family_(datasets::make_objective_family(spec.objective)) {
  if (family_->max_agents() > 0 && spec.agents > family_->max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: {} exceeds the {} agents objective.family "
                    "'{}' provides",
                    spec.agents, family_->max_agents(), spec.objective.family));
}

RunEngine::~RunEngine() = default;

std::vector<protocol::History> make_histories(
    const protocol::HistoryRequest& request,
    const std::vector<std::shared_ptr<const datasets::Objective>>& objectives,
    const core::RngFactory& streams, core::ThreadPool& pool) {
  std::vector<protocol::History> out(objectives.size());
  pool.parallel_for(objectives.size(), [&](std::size_t i) {
    const int n = static_cast<int>(i);
    const datasets::Objective& objective = *objectives[i];
    const auto agent = request.policy(n, objective.domain());
    std::vector<Eigen::VectorXd> xs;
    std::vector<double> ys;
    for (int t = 0; t <= request.rounds; ++t) {
      std::vector<Eigen::VectorXd> queries;
      if (t == 0) {
        core::RngStream init = streams.stream("agent.init", i);
        queries = agent->initial_points(init);
      } else {
        core::RngStream rng = streams.stream("agent.step", i, static_cast<std::uint64_t>(t));
        queries.push_back(agent->propose(t, protocol::NoBroadcast{}, rng, streams).x);
      }
      core::RngStream noise = streams.stream("agent.noise", i, static_cast<std::uint64_t>(t));
      for (const Eigen::VectorXd& x : queries) {
        output::check_interrupt();
        const double y = evaluate(objective, x, noise, n, static_cast<int>(streams.run()), t).y;
        agent->observe(x, y);
        xs.push_back(x);
        ys.push_back(y);
      }
    }
    protocol::History& h = out[i];
    h.X.resize(static_cast<Eigen::Index>(xs.size()), objective.domain().dim);
    h.y = Eigen::Map<const Eigen::VectorXd>(ys.data(), static_cast<Eigen::Index>(ys.size()));
    for (std::size_t k = 0; k < xs.size(); ++k) h.X.row(static_cast<Eigen::Index>(k)) = xs[k];
  });
  return out;
}

const std::vector<protocol::History>* RunEngine::histories(Run& r) const {
  const auto request = spec_.system->history_request();
  if (!request) return nullptr;
  if (family_->varies_by_run()) return nullptr;  // made per run, by start()
  std::lock_guard<std::mutex> lock(histories_mutex_);
  if (!shared_histories_)
    shared_histories_ =
        make_histories(*request, r.objectives, history_streams(spec_.seed, 0), pool_);
  return &*shared_histories_;
}

void RunEngine::start(Run& r) const {
  const auto t0 = std::chrono::steady_clock::now();
  r.objectives = family_->make(spec_.agents, r.rf);
  const core::Domain& domain = r.objectives[0]->domain();
  const auto h0 = std::chrono::steady_clock::now();
  std::vector<protocol::History> own;  // histories of this run's objectives
  const std::vector<protocol::History>* histories = this->histories(r);
  if (!histories) {
    if (const auto request = spec_.system->history_request()) {
      own =
          make_histories(*request, r.objectives, history_streams(spec_.seed, r.result.run), pool_);
      histories = &own;
    }
  }
  r.result.history_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
  const protocol::RunInputs in{r.result.run, spec_.agents, &domain, &r.rf, histories};
  r.parts = spec_.system->build(in);
  if (static_cast<int>(r.parts.agents.size()) != spec_.agents)
    throw std::logic_error(fmt::format("algorithm {} built {} agents for {} objectives",
                                       spec_.system->name(), r.parts.agents.size(), spec_.agents));
  if (spec_.per_agent_ledgers) {
    r.agents.emplace(spec_);
    r.result.agent_columns = {"epsilon"};
    if (spec_.system->charges_per_agent()) {
      r.broadcast_view.emplace(spec_);
      r.result.agent_columns.push_back("epsilon_broadcast");
    }
    r.result.epsilon_median.assign(static_cast<std::size_t>(spec_.rounds) + 1, 0.0);
    r.result.epsilon_p90 = r.result.epsilon_median;
  } else {
    r.ledger.emplace(spec_);
  }
  r.plan = spec_.system->privacy_plan(spec_.agents);
  check_plan(r);
  if (!r.plan.agent_budgets.empty()) {
    if (!r.agents) throw std::logic_error("personal budgets without per-agent ledgers");
    r.stop.emplace(spec_, r.plan);
    r.result.agent_columns.push_back("eligible");
  }
  if (!r.plan.agent_tiers.empty()) r.result.agent_columns.push_back("tier");
  r.work.resize(static_cast<std::size_t>(spec_.agents));
  r.best.assign(static_cast<std::size_t>(spec_.agents), -std::numeric_limits<double>::infinity());
  RunResult& res = r.result;
  res.dim = domain.dim;
  const auto measured = static_cast<Eigen::Index>(r.parts.measured.size());
  res.best_f = Eigen::MatrixXd::Constant(spec_.rounds + 1, measured,
                                         -std::numeric_limits<double>::infinity());
  res.regret.resize(spec_.rounds + 1, measured);
  res.epsilon.assign(spec_.rounds + 1, 0.0);
  res.extra_epsilon.assign(spec_.server.accountants.size(),
                           std::vector<double>(spec_.rounds + 1, 0.0));
  r.columns = spec_.system->server_columns();
  for (const protocol::StatColumn c : r.columns)
    res.server_columns.push_back(protocol::to_string(c));
  for (const privacy::DpEvent& e : r.parts.setup_events) compose(r, e);
  if (r.parts.server) r.server_stop = server_stop(spec_, r.plan);
  res.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void RunEngine::check_plan(const Run& r) const {
  // The plan is what `fbosim privacy CONFIG` and the stop rules compose: a part releasing
  // anything else would make both wrong (never an understated epsilon), so it is a bug here.
  const auto differ = [&](const std::string& what, const std::string& built,
                          const std::string& planned) {
    return std::logic_error(
        fmt::format("algorithm {}: the run's {} ({}) differ from its privacy plan's ({})",
                    spec_.system->name(), what, built, planned));
  };
  if (r.parts.setup_events != r.plan.setup)
    throw differ("events before round 0", config::events_text(r.parts.setup_events),
                 config::events_text(r.plan.setup));
  const privacy::DpEvent round =
      r.parts.server ? r.parts.server->event(spec_.agents) : privacy::DpEvent::noop();
  if (!(round == r.plan.round))
    throw differ("server release", privacy::to_string(round), privacy::to_string(r.plan.round));
  if (!r.parts.server &&
      (r.plan.budget || r.plan.server_rounds != protocol::PrivacyPlan{}.server_rounds))
    throw std::logic_error(
        fmt::format("algorithm {}: a stop rule without a server", spec_.system->name()));
}

void RunEngine::agent_phase(Run& r, int t) const {
  // No message after the server stopped (the last broadcast would go unused, too).
  const bool report = r.parts.server && t < r.server_stop;
  pool_.parallel_for(static_cast<std::size_t>(spec_.agents), [&](std::size_t i) {
    output::check_interrupt();  // an evaluation can take seconds: Ctrl-C/SIGTERM stops between them
    const int n = static_cast<int>(i);
    protocol::AgentPolicy& agent = *r.parts.agents[i];
    Run::AgentRound& w = r.work[i];
    w.xs.clear();
    if (agent.optimises()) {
      core::RngStream rng = r.rf.stream("agent.step", i, static_cast<std::uint64_t>(t));
      core::RngStream noise = r.rf.stream("agent.noise", i, static_cast<std::uint64_t>(t));
      if (t == 0) {
        core::RngStream init = r.rf.stream("agent.init", i);
        w.xs = agent.initial_points(init);
        w.source = "init";
      } else {
        // An agent stopped by its personal budget carries on with local TS steps.
        const protocol::Broadcast& seen =
            r.stop && r.stop->stopped(n) ? kStoppedAgentSees : r.broadcast;
        protocol::Proposal p = agent.propose(t, seen, rng, r.rf);
        w.xs.push_back(std::move(p.x));
        w.source = p.source;
      }
      w.ys.assign(w.xs.size(), 0.0);
      w.fs.assign(w.xs.size(), 0.0);
      for (std::size_t k = 0; k < w.xs.size(); ++k) {
        if (k > 0) output::check_interrupt();
        const auto e = evaluate(*r.objectives[i], w.xs[k], noise, n, r.result.run, t);
        w.ys[k] = e.y;
        w.fs[k] = e.f;
        agent.observe(w.xs[k], e.y);
      }
    }
    w.message.reset();
    if (report) {
      core::RngStream msg = r.rf.stream("agent.message", i, static_cast<std::uint64_t>(t));
      if (auto m = agent.report(t, msg)) w.message = std::make_shared<const protocol::Message>(*m);
    }
  });
}

void RunEngine::record(Run& r, int t) const {
  RunResult& res = r.result;
  CsvTraceSink sink(res.trace_csv);
  for (int n = 0; n < spec_.agents; ++n) {
    const Run::AgentRound& w = r.work[static_cast<std::size_t>(n)];
    const auto opt = r.objectives[static_cast<std::size_t>(n)]->optimum();
    double& best = r.best[static_cast<std::size_t>(n)];
    for (std::size_t k = 0; k < w.xs.size(); ++k) {
      best = std::max(best, w.fs[k]);
      sink.query(
          {res.run, n, t, w.xs[k], w.ys[k], w.fs[k], best, opt ? *opt - best : kNaN, w.source});
    }
  }
  for (std::size_t k = 0; k < r.parts.measured.size(); ++k) {
    const auto n = static_cast<std::size_t>(r.parts.measured[k]);
    const auto opt = r.objectives[n]->optimum();
    res.best_f(t, static_cast<Eigen::Index>(k)) = r.best[n];
    res.regret(t, static_cast<Eigen::Index>(k)) = opt ? *opt - r.best[n] : kNaN;
  }
  put_epsilons(r, t);
  if (r.agents && t < spec_.rounds) snapshot_agents(r, t);  // round T: after the final events
}

std::vector<double> RunEngine::spent(Run& r) const {
  if (r.agents) return r.agents->spent(fmt::format("in run {}", r.result.run));
  return r.ledger->spent();
}

void RunEngine::put_epsilons(Run& r, int t) const {
  const std::vector<double> spent = this->spent(r);
  RunResult& res = r.result;
  res.epsilon[static_cast<std::size_t>(t)] = spent[0];
  for (std::size_t a = 1; a < spent.size(); ++a)
    res.extra_epsilon[a - 1][static_cast<std::size_t>(t)] = spent[a];
  if (!r.agents) return;
  const privacy::EpsilonSpread s = r.agents->spread(fmt::format("in run {}", res.run));
  res.epsilon_median[static_cast<std::size_t>(t)] = s.median;
  res.epsilon_p90[static_cast<std::size_t>(t)] = s.p90;
}

void RunEngine::snapshot_agents(Run& r, int t) const {
  RunResult& res = r.result;
  const std::vector<double>& eps = r.agents->epsilons(0, fmt::format("in run {}", res.run));
  const auto time = static_cast<long long>(r.events.now());
  const std::vector<double>* seen =
      r.broadcast_view ? &r.broadcast_view->epsilons(0, fmt::format("in run {}", res.run))
                       : nullptr;
  for (int n = 0; n < spec_.agents; ++n) {
    fmt::format_to(std::back_inserter(res.agents_csv), "{},{},{},{},{}", res.run, t, time, n,
                   eps[static_cast<std::size_t>(n)]);
    if (seen) fmt::format_to(std::back_inserter(res.agents_csv), ",{}", (*seen)[std::size_t(n)]);
    if (r.stop)
      fmt::format_to(std::back_inserter(res.agents_csv), ",{}", r.stop->stopped(n) ? 0 : 1);
    if (!r.plan.agent_tiers.empty())
      fmt::format_to(std::back_inserter(res.agents_csv), ",{}", r.plan.agent_tiers[std::size_t(n)]);
    res.agents_csv += '\n';
  }
}

void RunEngine::compose(Run& r, const privacy::DpEvent& event) const {
  if (r.agents) {
    r.agents->charge_all(event);
    if (r.broadcast_view) r.broadcast_view->charge_all(event);
  } else {
    r.ledger->compose(event, fmt::format("in run {}", r.result.run));
  }
}

void RunEngine::charge(Run& r, int agent, const privacy::DpEvent& event) const {
  if (!r.agents)  // one ledger stands for every agent only if every agent is charged alike
    throw std::logic_error("a per-agent charge in a run without per-agent ledgers");
  r.agents->charge(agent, event);
}

void RunEngine::charge_release(Run& r, const protocol::AgentCharges& charges) const {
  // Against the server (the epsilon columns), then against an observer of the broadcasts only
  // (agents.csv's epsilon_broadcast); an aborted release charges nobody.
  // A stopped agent's data enters no release (personal budgets): it is charged nothing.
  const auto eligible = [&r](int n) { return !r.stop || !r.stop->stopped(n); };
  protocol::for_each_charge(charges.server, spec_.agents, [&](int n, const privacy::DpEvent& e) {
    if (eligible(n)) charge(r, n, e);
  });
  if (!r.broadcast_view)
    throw std::logic_error("a trust model's charges in a run without its broadcast ledgers");
  protocol::for_each_charge(charges.broadcast, spec_.agents, [&](int n, const privacy::DpEvent& e) {
    if (eligible(n)) r.broadcast_view->charge(n, e);
  });
}

void RunEngine::release(Run& r) const {
  protocol::ReleaseInputs in;
  in.run = r.result.run;
  in.streams = &r.rf;
  in.evaluate = [&r](int agent, const Eigen::VectorXd& x) {
    return r.objectives.at(static_cast<std::size_t>(agent))->evaluate(x);
  };
  in.query = [&r](int agent, const Eigen::VectorXd& x, core::RngStream& rng) {
    output::check_interrupt();
    // Reported as round rounds + 1: the release follows the last round.
    const auto e = evaluate(*r.objectives.at(static_cast<std::size_t>(agent)), x, rng, agent,
                            r.result.run, static_cast<int>(r.result.regret.rows()));
    return protocol::Observation{e.y, e.f};
  };
  in.optimum = [&r](int agent) {
    return r.objectives.at(static_cast<std::size_t>(agent))->optimum();
  };
  in.convex_lipschitz_score = [&r](int agent) {
    return r.objectives.at(static_cast<std::size_t>(agent))->convex_lipschitz_score();
  };
  const protocol::FinalRelease released = r.parts.final_release(in);
  for (const privacy::DpEvent& e : released.events) compose(r, e);
  r.final_composed.insert(r.final_composed.end(), released.events.begin(), released.events.end());
  for (const protocol::ReleaseRow& row : released.rows)
    append_release_row(r.result.release_csv, r.result.run, row, r.result.dim);
}

void RunEngine::withhold_stopped(Run& r) const {
  r.stop->before_release(r.agents->ledgers());
  for (int n = 0; n < spec_.agents; ++n) {
    auto& message = r.work[static_cast<std::size_t>(n)].message;
    if (!message || !r.stop->stopped(n)) continue;
    if (!r.plan.stopped_sends_zero) {
      message.reset();
      continue;
    }
    // Its share must still be summed (the shares are set by the public count of agents), so it
    // sends a zero vector: its data enters nothing.
    const auto* sample = std::get_if<protocol::RffSample>(message.get());
    if (!sample) throw std::logic_error("a zero vector in place of a message that is no sample");
    message = std::make_shared<const protocol::Message>(
        protocol::RffSample{Eigen::VectorXd::Zero(sample->omega.size())});
  }
}

void RunEngine::server_phase(Run& r, int t) const {
  if (r.stop && r.stop->active()) withhold_stopped(r);
  // Replies travel as events; the round closes at the deadline or after the last reply.
  protocol::Inbox arrived(static_cast<std::size_t>(spec_.agents));
  const core::SimTime start = r.events.now();
  const std::int64_t deadline = spec_.network.deadline;
  core::SimTime last = start;
  for (int n = 0; n < spec_.agents; ++n) {
    const auto& message = r.work[static_cast<std::size_t>(n)].message;
    if (!message) continue;  // nothing to send this round
    const auto delay = r.network.delay(r.rf, n, t);
    if (!delay) continue;  // dropped out this round
    const core::SimTime at = start + *delay;
    if (deadline > 0 && at > start + deadline) continue;  // too late
    last = std::max(last, at);
    r.events.schedule(at,
                      [&arrived, &message, n] { arrived[static_cast<std::size_t>(n)] = message; });
  }
  const core::SimTime close = deadline > 0 ? start + deadline : last;
  protocol::Release release;
  r.events.schedule(close, [&] {
    core::RngStream srv = r.rf.stream("server", static_cast<std::uint64_t>(t));
    release = r.parts.server->release(arrived, t, srv);
    if (release.charges) {  // a trust model's per-agent charges (issue 42)
      // What went out is the plan's nominal release, or nothing (an aborted secure sum).
      const bool broadcast = !std::holds_alternative<protocol::NoBroadcast>(release.broadcast);
      if (broadcast ? !(release.event == r.plan.round) : !(release.event == privacy::DpEvent{}))
        throw std::logic_error(
            fmt::format("algorithm {}: round {} released {}, not the {} of its privacy plan",
                        spec_.system->name(), t, privacy::to_string(release.event),
                        broadcast ? privacy::to_string(r.plan.round) : "nothing"));
      charge_release(r, *release.charges);
      return;
    }
    // Never past the budget, never other than what `fbosim privacy` composes.
    if (!(release.event == r.plan.round))
      throw std::logic_error(
          fmt::format("algorithm {}: round {} released {}, not the {} of its "
                      "privacy plan",
                      spec_.system->name(), t, privacy::to_string(release.event),
                      privacy::to_string(r.plan.round)));
    compose(r, release.event);
    if (r.plan.budget && !(spent(r)[0] <= *r.plan.budget))
      throw std::logic_error(fmt::format("server.budget: epsilon {} after round {} exceeds {}",
                                         spent(r)[0], t, *r.plan.budget));
  });
  r.events.run();
  r.broadcast = std::move(release.broadcast);
  add_server_row(r, t, release.stats);
  r.result.messages += release.stats.selected;
  r.result.clipped += release.stats.clipped;
}

void RunEngine::stopped_round(Run& r, int t) const {
  r.broadcast = protocol::NoBroadcast{};  // the agents' own TS step from now on
  protocol::RoundStats stats;
  stats.aggregating = false;
  add_server_row(r, t, stats);
}

void RunEngine::add_server_row(Run& r, int t, const protocol::RoundStats& stats) const {
  const std::vector<double> spent = this->spent(r);
  ServerRow row{
      t, static_cast<long long>(r.events.now()), {}, spent[0], {spent.begin() + 1, spent.end()}};
  for (const protocol::StatColumn c : r.columns)
    row.stats.push_back(protocol::format_stat(c, stats));
  r.result.server.push_back(std::move(row));
}

RunResult RunEngine::run(int run, const Progress& progress) const {
  // Every schedule but the papers' rounds runs on the simulated time line (async_engine.hpp).
  if (spec_.schedule.kind != protocol::ScheduleKind::rounds)
    return AsyncEngine(spec_, pool_, family_).run(run, progress);
  Run r(run, spec_.seed, spec_.network);
  start(r);
  for (int t = 0; t <= spec_.rounds; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    agent_phase(r, t);
    record(r, t);
    if (r.parts.server && t < spec_.rounds) {
      if (t < r.server_stop) {
        server_phase(r, t);
      } else {
        stopped_round(r, t);
      }
    }
    r.result.round_seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (progress) progress(t, spec_.rounds);
  }
  for (const privacy::DpEvent& e : r.parts.final_events) compose(r, e);
  r.final_composed = r.parts.final_events;
  if (r.parts.final_release) release(r);
  if (r.final_composed != r.plan.final)
    throw std::logic_error(fmt::format(
        "algorithm {}: the run's events after the last round ({}) differ from its privacy "
        "plan's ({})",
        spec_.system->name(), config::events_text(r.final_composed),
        config::events_text(r.plan.final)));
  for (const auto& a : r.parts.agents) r.result.fallbacks += a->fallbacks();
  // The last round's entry holds everything the run released, the final release included (the
  // last row of summary.csv and sweep.csv: the privacy of what the run published).
  put_epsilons(r, spec_.rounds);
  if (r.agents) snapshot_agents(r, spec_.rounds);
  r.result.final_epsilon = r.result.epsilon.back();
  return std::move(r.result);
}

}  // namespace fbosim::run

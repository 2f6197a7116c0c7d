#include "sim/run/async_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/config/run_epsilon.hpp"
#include "sim/output/interrupt.hpp"
#include "sim/run/age_weight.hpp"
#include "sim/run/agent_privacy.hpp"
#include "sim/run/checked_query.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/schedule_plan.hpp"
#include "sim/run/schedule_stops.hpp"
#include "sim/timeline/tick.hpp"

namespace fbosim::run {

namespace {

// What an agent its personal budget stopped, or every agent after the server stopped, proposes
// with: no broadcast (its own TS step).
const protocol::Broadcast kStoppedAgentView{protocol::NoBroadcast{}};

}  // namespace

struct AsyncEngine::Run {
  // One evaluation of one agent: its queries, results, and the message reported after it.
  struct Evaluation {
    std::vector<Eigen::VectorXd> xs;
    std::vector<double> ys, fs;
    const char* source = "init";
    std::shared_ptr<const protocol::Message> message;
  };

  Run(int run, std::uint64_t seed) : rf(seed, static_cast<std::uint64_t>(run)) { result.run = run; }
  core::RngFactory rf;
  std::vector<std::shared_ptr<const datasets::Objective>> objectives;
  protocol::RunParts parts;
  protocol::PrivacyPlan plan;
  ChargeRule rule;            // who is charged what (release_charge)
  privacy::DpEvent sent;      // what each message sent costs its sender (local)
  std::size_t next_sent = 0;  // schedule.order: the first completion not yet charged
  std::vector<protocol::StatColumn> columns;
  std::optional<AgentPrivacy> ledgers;
  std::string where;  // "in run r", for the ledgers' messages
  SchedulePlan schedule;
  // Who each release charges and where the stop rules and personal budgets stop (public).
  ScheduleStops stops;
  std::size_t released = 0;                   // releases decided so far (made or stopped)
  std::vector<std::vector<Evaluation>> done;  // [agent][evaluation]
  std::vector<std::size_t> next;              // per agent: its next evaluation to run
  std::vector<std::size_t> kept;  // per agent: its first message that may be released again
  protocol::Broadcast broadcast;  // the latest release's
  // Per summary row k: the instant every agent had completed evaluation k, and how many
  // releases came before it (the row's epsilon is the ledgers' after them).
  std::vector<timeline::Tick> row_time;
  std::vector<std::size_t> row_releases;
  std::size_t next_row = 0;  // the first row not yet recorded
  RunResult result;
};

AsyncEngine::AsyncEngine(const config::ExperimentSpec& spec, core::ThreadPool& pool,
                         std::shared_ptr<const datasets::ObjectiveFamily> family)
    : spec_(spec), pool_(pool), family_(std::move(family)) {}

void AsyncEngine::start(Run& r) const {
  const auto t0 = std::chrono::steady_clock::now();
  r.objectives = family_->make(spec_.agents, r.rf);
  const core::Domain& domain = r.objectives[0]->domain();
  if (spec_.system->history_request())  // no algorithm that declares a schedule asks for one
    throw std::logic_error(fmt::format("algorithm {}: histories under schedule.kind {}",
                                       spec_.system->name(),
                                       protocol::kScheduleKindNames.name(spec_.schedule.kind)));
  const protocol::RunInputs in{r.result.run, spec_.agents, &domain, &r.rf, nullptr};
  r.parts = spec_.system->build(in);
  if (static_cast<int>(r.parts.agents.size()) != spec_.agents)
    throw std::logic_error(fmt::format("algorithm {} built {} agents for {} objectives",
                                       spec_.system->name(), r.parts.agents.size(), spec_.agents));
  if (r.parts.final_release)
    throw std::logic_error(fmt::format("algorithm {}: a final release under schedule.kind {}",
                                       spec_.system->name(),
                                       protocol::kScheduleKindNames.name(spec_.schedule.kind)));
  r.plan = spec_.system->privacy_plan(spec_.agents);
  const privacy::DpEvent round =
      r.parts.server ? r.parts.server->event(spec_.agents) : privacy::DpEvent::noop();
  if (r.parts.setup_events != r.plan.setup || !(round == r.plan.round))
    throw std::logic_error(
        fmt::format("algorithm {}: the run's events differ from its privacy "
                    "plan's",
                    spec_.system->name()));
  r.rule = charge_rule(spec_, r.plan);
  r.sent = sent_charge(r.rule);
  // The time line from its own streams, before anything is evaluated.
  r.schedule = plan_schedule(spec_, r.rf, r.parts.server != nullptr);
  if (r.parts.server) r.stops = schedule_stops(spec_, r.plan, r.schedule, r.rf);
  r.ledgers.emplace(spec_);
  r.where = fmt::format("in run {}", r.result.run);
  for (const privacy::DpEvent& e : r.parts.setup_events) r.ledgers->charge_all(e);
  r.done.resize(static_cast<std::size_t>(spec_.agents));
  for (int n = 0; n < spec_.agents; ++n) {
    const std::size_t count = r.schedule.evaluations[static_cast<std::size_t>(n)].size();
    if (count == 0)
      throw std::runtime_error(
          fmt::format("agent {} never completes its first evaluation in run {}: its availability "
                      "(timing.availability) has no online time long enough",
                      n, r.result.run));
    r.done[static_cast<std::size_t>(n)].resize(count);
  }
  r.next.assign(static_cast<std::size_t>(spec_.agents), 0);
  r.kept.assign(static_cast<std::size_t>(spec_.agents), 0);
  RunResult& res = r.result;
  res.dim = domain.dim;
  r.columns = spec_.system->server_columns();
  for (const protocol::StatColumn c : r.columns)
    res.server_columns.push_back(protocol::to_string(c));
  const auto rows = static_cast<std::size_t>(spec_.rounds) + 1;
  res.round_seconds.assign(rows, 0.0);
  res.epsilon.assign(rows, 0.0);
  res.extra_epsilon.assign(spec_.server.accountants.size(), std::vector<double>(rows, 0.0));
  res.agent_columns = {"epsilon"};
  if (!r.plan.agent_budgets.empty()) res.agent_columns.push_back("eligible");
  if (!r.plan.agent_tiers.empty()) res.agent_columns.push_back("tier");
  res.epsilon_median.assign(rows, 0.0);
  res.epsilon_p90.assign(rows, 0.0);
  std::vector<timeline::Tick> times;
  for (const PlannedRelease& p : r.schedule.releases) times.push_back(p.time);
  // Each agent's completions in time order (with several workers, not evaluation order): row k
  // follows the (k + 1)-th.
  std::vector<std::vector<timeline::Tick>> completed;
  for (const auto& mine : r.schedule.evaluations) {
    std::vector<timeline::Tick>& c = completed.emplace_back();
    for (const PlannedEvaluation& e : mine) c.push_back(e.complete);
    std::sort(c.begin(), c.end());
  }
  for (std::size_t k = 0; k < rows; ++k) {
    timeline::Tick all_done = 0;
    for (const auto& c : completed) all_done = std::max(all_done, c[std::min(k, c.size() - 1)]);
    r.row_time.push_back(all_done);
    r.row_releases.push_back(static_cast<std::size_t>(
        std::lower_bound(times.begin(), times.end(), all_done) - times.begin()));
  }
  snapshot_rows(r, 0);
  res.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void AsyncEngine::evaluate(Run& r, std::size_t i, std::size_t k,
                           const protocol::Broadcast& seen) const {
  protocol::AgentPolicy& agent = *r.parts.agents[i];
  Run::Evaluation& w = r.done[i][k];
  const auto key = static_cast<std::uint64_t>(k);
  const int t = static_cast<int>(k);
  if (k == 0) {
    core::RngStream init = r.rf.stream("agent.init", i);
    w.xs = agent.initial_points(init);
    w.source = "init";
  } else {
    core::RngStream rng = r.rf.stream("agent.step", i, key);
    protocol::Proposal p = agent.propose(t, seen, rng, r.rf);
    w.xs.push_back(std::move(p.x));
    w.source = p.source;
  }
  core::RngStream noise = r.rf.stream("agent.noise", i, key);
  w.ys.assign(w.xs.size(), 0.0);
  w.fs.assign(w.xs.size(), 0.0);
  for (std::size_t q = 0; q < w.xs.size(); ++q) {
    if (q > 0) output::check_interrupt();
    const auto e = checked_query(*r.objectives[i], w.xs[q], noise, static_cast<int>(i),
                                 r.result.run, t, "evaluation");
    w.ys[q] = e.y;
    w.fs[q] = e.f;
  }
}

void AsyncEngine::in_flight(Run& r) const {
  // Several workers (ts: no server, one segment): each agent's proposals and completions in time
  // order, a completion before a proposal at the same instant, so that each query is proposed
  // given the evaluations completed by then only (Kandasamy et al. 2018); its result is
  // observed at its completion.
  pool_.parallel_for(static_cast<std::size_t>(spec_.agents), [&](std::size_t i) {
    const auto& planned = r.schedule.evaluations[i];
    protocol::AgentPolicy& agent = *r.parts.agents[i];
    if (!agent.optimises()) return;
    for (const AgentStep& step : agent_steps(planned)) {
      output::check_interrupt();
      if (step.propose) {
        evaluate(r, i, step.evaluation, r.broadcast);
        continue;
      }
      const Run::Evaluation& w = r.done[i][step.evaluation];
      for (std::size_t q = 0; q < w.xs.size(); ++q) agent.observe(w.xs[q], w.ys[q]);
    }
    r.next[i] = planned.size();
  });
}

void AsyncEngine::segment(Run& r, int j) const {
  if (spec_.schedule.workers > 1) {
    if (r.parts.server) throw std::logic_error("AsyncEngine: several workers with a server");
    if (j == 0) in_flight(r);
    return;
  }
  // A message of this segment is in release j or a later one (its proposal follows release
  // j - 1): none is sent once a stop rule has stopped the server, nor by an agent its budget
  // stopped before release j (but a zero vector where a stopped agent's noise share is still
  // summed). Without a stop every agent reports, as before the stop rules existed.
  const auto planned_releases = static_cast<int>(r.schedule.releases.size());
  const bool server = r.parts.server != nullptr &&
                      (j < r.stops.server_releases || r.stops.server_releases == planned_releases);
  const int n_agents = spec_.agents;
  pool_.parallel_for(static_cast<std::size_t>(n_agents), [&](std::size_t i) {
    const auto& planned = r.schedule.evaluations[i];
    protocol::AgentPolicy& agent = *r.parts.agents[i];
    const int n = static_cast<int>(i);
    // An agent its budget stopped before release j - 1 or earlier follows no broadcast: local TS.
    const protocol::Broadcast& seen = r.stops.stopped(n, j - 1) ? kStoppedAgentView : r.broadcast;
    const bool reports = server && (!r.stops.stopped(n, j) || r.plan.stopped_sends_zero);
    for (std::size_t& k = r.next[i]; k < planned.size() && planned[k].broadcast == j; ++k) {
      output::check_interrupt();
      Run::Evaluation& w = r.done[i][k];
      if (agent.optimises()) {
        evaluate(r, i, k, seen);
        for (std::size_t q = 0; q < w.xs.size(); ++q) agent.observe(w.xs[q], w.ys[q]);
      }
      const int t = static_cast<int>(k);
      if (reports && t < spec_.rounds) {
        core::RngStream msg = r.rf.stream("agent.message", i, static_cast<std::uint64_t>(k));
        if (auto m = agent.report(t, msg))
          w.message = r.parts.server->send(std::make_shared<const protocol::Message>(*m), r.rf,
                                           static_cast<int>(i), t);
      }
    }
  });
}

void AsyncEngine::forget(Run& r, const PlannedRelease& planned) const {
  // The messages older than a released one are never released again; the released one neither,
  // but under latest (until a newer one replaces it).
  const bool keep = spec_.schedule.kind == protocol::ScheduleKind::latest;
  for (const auto& [n, k] : planned.messages) {
    auto& mine = r.done[static_cast<std::size_t>(n)];
    std::size_t& from = r.kept[static_cast<std::size_t>(n)];
    const auto last = static_cast<std::size_t>(k) + (keep ? 0 : 1);
    for (; from < last; ++from) mine[from].message.reset();
  }
}

void AsyncEngine::add_server_row(Run& r, int j, const protocol::RoundStats& stats) const {
  const std::vector<double> spent = r.ledgers->spent(r.where);
  const PlannedRelease& planned = r.schedule.releases[static_cast<std::size_t>(j)];
  ServerRow row{
      j, static_cast<long long>(planned.time), {}, spent[0], {spent.begin() + 1, spent.end()}};
  for (const protocol::StatColumn c : r.columns)
    row.stats.push_back(protocol::format_stat(c, stats));
  r.result.server.push_back(std::move(row));
}

void AsyncEngine::check_charges(const Run& r, int j, const protocol::Release& out) const {
  // What went out is the plan's release, or, under a trust model, nothing (an aborted secure
  // sum, a local release with no message summed).
  const bool nothing = out.charges && std::holds_alternative<protocol::NoBroadcast>(out.broadcast);
  if (nothing ? !(out.event == privacy::DpEvent{}) : !(out.event == r.plan.round))
    throw std::logic_error(
        fmt::format("algorithm {}: release {} released {}, not the {} of its privacy plan",
                    spec_.system->name(), j, privacy::to_string(out.event),
                    nothing ? "nothing" : privacy::to_string(r.plan.round)));
  if (!out.charges || r.rule.trust == server::Trust::local) return;  // local: per message sent
  const std::vector<ReleaseCharge>& plan = r.stops.releases[static_cast<std::size_t>(j)].charges;
  if (r.rule.trust == server::Trust::distributed) {
    // The secure sum's own charges are exactly release_charge's: the same agents, the same event.
    const auto& mine = out.charges->server;
    const bool same = plan.empty()
                          ? mine.empty()
                          : plan.size() == 1 && mine.size() == 1 && !mine[0].everyone &&
                                mine[0].agents == plan[0].agents &&
                                charged_event(spec_.schedule.kind, mine[0].event) == plan[0].event;
    if (!same)
      throw std::logic_error(
          fmt::format("release {}: the secure sum's own charges differ from release_charge's", j));
    return;
  }
  // Personal rates: the mechanism's own charge of each agent (its q_n), under the schedule's
  // rule, must be what the plan charges it (schedule_stops), never less.
  std::vector<const privacy::DpEvent*> mine(static_cast<std::size_t>(spec_.agents), nullptr);
  protocol::for_each_charge(
      out.charges->server, spec_.agents,
      [&](int n, const privacy::DpEvent& e) { mine[static_cast<std::size_t>(n)] = &e; });
  // Durations that depend on data: every agent is charged, those without a message in the
  // release too, the event at replace-one sensitivity without sampling (release_charge).
  const bool everyone = r.rule.data_dependent;
  for (const ReleaseCharge& c : plan)
    for (const int n : c.agents) {
      const privacy::DpEvent* e = mine[static_cast<std::size_t>(n)];
      if (!e && everyone && c.event == data_dependent_event(out.event)) continue;
      if (!e || !((everyone ? data_dependent_event(*e) : charged_event(spec_.schedule.kind, *e)) ==
                  c.event))
        throw std::logic_error(
            fmt::format("algorithm {}: release {} charges agent {} {}, not the {} of its plan",
                        spec_.system->name(), j, n, e ? privacy::to_string(*e) : "nothing",
                        privacy::to_string(c.event)));
    }
}

void AsyncEngine::release(Run& r, int j) const {
  const PlannedRelease& planned = r.schedule.releases[static_cast<std::size_t>(j)];
  const ChargedRelease& charged = r.stops.releases[static_cast<std::size_t>(j)];
  if (!charged.released) {
    // A stop rule (server.budget, server.stop_p) ended the releases: nothing is released or
    // charged, and the agents take their own TS steps from now on.
    r.broadcast = protocol::NoBroadcast{};
    forget(r, planned);
    r.released = static_cast<std::size_t>(j) + 1;
    snapshot_rows(r, r.released);
    protocol::RoundStats stats;
    stats.aggregating = false;
    add_server_row(r, j, stats);
    return;
  }
  protocol::Inbox inbox(static_cast<std::size_t>(spec_.agents));
  // The pool: the agents with a message in the release by the time line (public).
  std::vector<bool> in_pool(static_cast<std::size_t>(spec_.agents), false);
  for (const auto& [n, k] : planned.messages) {
    in_pool[static_cast<std::size_t>(n)] = true;
    auto& message = r.done[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)].message;
    if (!message) continue;  // the agent reported nothing
    auto& slot = inbox[static_cast<std::size_t>(n)];
    slot = message;
    if (!r.stops.stopped(n, j)) continue;
    // Stopped by its personal budget: its data enters no release. It sends nothing, or a zero
    // vector where its noise share must still be summed (agent-side sampling).
    if (!r.plan.stopped_sends_zero) {
      slot.reset();
      continue;
    }
    const auto* sample = std::get_if<protocol::RffSample>(message.get());
    if (!sample) throw std::logic_error("a zero vector in place of a message that is no sample");
    slot = std::make_shared<const protocol::Message>(
        protocol::RffSample{Eigen::VectorXd::Zero(sample->omega.size())});
  }
  core::RngStream srv = r.rf.stream("server", static_cast<std::uint64_t>(j));
  const config::ScheduleSpec& s = spec_.schedule;
  std::vector<double> scale;
  if (s.age_weight != config::AgeWeight::one) {
    // Weights by age (latest): fixed by the time line, before the messages are seen.
    scale.assign(static_cast<std::size_t>(spec_.agents), 1.0);
    for (std::size_t i = 0; i < planned.messages.size(); ++i)
      scale[static_cast<std::size_t>(planned.messages[i].first)] =
          age_weight(s.age_weight, s.age_exponent, planned.ages[i]);
  }
  protocol::Release out =
      r.parts.server->release_pool(inbox, j, srv, in_pool, scale.empty() ? nullptr : &scale);
  check_charges(r, j, out);
  forget(r, planned);
  charge_sent(r, planned.time);  // the messages sent by its instant (local)
  // The charges of the plan (schedule_stops: release_charge's rule, each agent at its own
  // rate, a trust model's own): a release holds a message of each, or a zero vector of a
  // stopped one that is charged nothing.
  for (const ReleaseCharge& c : charged.charges)
    for (const int n : c.agents) r.ledgers->charge(n, c.event);
  r.released = static_cast<std::size_t>(j) + 1;
  if (r.plan.budget && !(r.ledgers->spent(r.where)[0] <= *r.plan.budget))
    throw std::logic_error(fmt::format("server.budget: epsilon {} after release {} exceeds {}",
                                       r.ledgers->spent(r.where)[0], j, *r.plan.budget));
  snapshot_rows(r, r.released);
  add_server_row(r, j, out.stats);
  r.result.messages += out.stats.selected;
  r.result.clipped += out.stats.clipped;
  r.broadcast = std::move(out.broadcast);
}

void AsyncEngine::charge_sent(Run& r, timeline::Tick upto) const {
  if (r.sent.as<privacy::NoOp>()) return;
  const auto& order = r.schedule.order;
  for (; r.next_sent < order.size() && order[r.next_sent].time <= upto; ++r.next_sent) {
    const timeline::Completion& c = order[r.next_sent];
    if (c.evaluation < spec_.rounds) r.ledgers->charge(c.agent, r.sent);
  }
}

void AsyncEngine::record(Run& r) const {
  RunResult& res = r.result;
  const int rows = spec_.rounds + 1;
  const auto measured = static_cast<Eigen::Index>(r.parts.measured.size());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::vector<double>> best(static_cast<std::size_t>(spec_.agents));
  // trace.csv in completion order: run,agent,round,time,x..,y,f,best_f,regret,source.
  std::vector<double> running(static_cast<std::size_t>(spec_.agents),
                              -std::numeric_limits<double>::infinity());
  auto out = std::back_inserter(res.trace_csv);
  for (const timeline::Completion& c : r.schedule.order) {
    const auto n = static_cast<std::size_t>(c.agent);
    const Run::Evaluation& w = r.done[n][static_cast<std::size_t>(c.evaluation)];
    const auto opt = r.objectives[n]->optimum();
    for (std::size_t q = 0; q < w.xs.size(); ++q) {
      running[n] = std::max(running[n], w.fs[q]);
      fmt::format_to(out, "{},{},{},{}", res.run, c.agent, c.evaluation, timeline::seconds(c.time));
      for (Eigen::Index d = 0; d < w.xs[q].size(); ++d) fmt::format_to(out, ",{}", w.xs[q][d]);
      fmt::format_to(out, ",{},{},{},", w.ys[q], w.fs[q], running[n]);
      if (opt) fmt::format_to(out, "{}", *opt - running[n]);
      fmt::format_to(out, ",{}\n", w.source);
    }
    best[n].push_back(running[n]);
  }
  res.best_f = Eigen::MatrixXd::Constant(rows, measured, -std::numeric_limits<double>::infinity());
  res.regret.resize(rows, measured);
  for (Eigen::Index m = 0; m < measured; ++m) {
    const auto n = static_cast<std::size_t>(r.parts.measured[static_cast<std::size_t>(m)]);
    const auto opt = r.objectives[n]->optimum();
    for (int k = 0; k < rows; ++k) {
      // An agent whose availability ended keeps its last best value.
      const double b = best[n][std::min(static_cast<std::size_t>(k), best[n].size() - 1)];
      res.best_f(k, m) = b;
      res.regret(k, m) = opt ? *opt - b : nan;
    }
  }
}

void AsyncEngine::snapshot(Run& r, std::size_t row) const {
  charge_sent(r, r.row_time[row]);  // the messages sent by the row's instant
  RunResult& res = r.result;
  const std::vector<double> spent = r.ledgers->spent(r.where);
  res.epsilon[row] = spent[0];
  for (std::size_t a = 1; a < spent.size(); ++a) res.extra_epsilon[a - 1][row] = spent[a];
  const privacy::EpsilonSpread s = r.ledgers->spread(r.where);
  res.epsilon_median[row] = s.median;
  res.epsilon_p90[row] = s.p90;
  const std::vector<double>& eps = r.ledgers->epsilons(0, r.where);
  const double time = timeline::seconds(r.row_time[row]);
  const bool budgets = !r.plan.agent_budgets.empty();
  const std::vector<int> eligible =
      budgets ? r.stops.eligible(spec_.agents, static_cast<int>(r.released)) : std::vector<int>{};
  auto out = std::back_inserter(res.agents_csv);
  for (int n = 0; n < spec_.agents; ++n) {
    const auto i = static_cast<std::size_t>(n);
    fmt::format_to(out, "{},{},{},{},{}", res.run, row, time, n, eps[i]);
    if (budgets) fmt::format_to(out, ",{}", eligible[i]);
    if (!r.plan.agent_tiers.empty()) fmt::format_to(out, ",{}", r.plan.agent_tiers[i]);
    res.agents_csv += '\n';
  }
}

void AsyncEngine::snapshot_rows(Run& r, std::size_t releases) const {
  // The last row waits for the events after the last evaluation (run()).
  const std::size_t last = static_cast<std::size_t>(spec_.rounds);
  while (r.next_row < last && r.row_releases[r.next_row] <= releases) snapshot(r, r.next_row++);
}

RunResult AsyncEngine::run(int run, const Progress& progress) const {
  Run r(run, spec_.seed);
  start(r);
  const auto releases = static_cast<int>(r.schedule.releases.size());
  for (int j = 0; j <= releases; ++j) {
    const auto t0 = std::chrono::steady_clock::now();
    segment(r, j);
    if (j < releases) release(r, j);
    const int row = std::min(j, spec_.rounds);
    r.result.round_seconds[static_cast<std::size_t>(row)] +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // (row `rounds` is reported once, at the end: it says the run is finished)
    if (progress) progress(std::min(j, spec_.rounds - 1), spec_.rounds);
  }
  if (progress) progress(spec_.rounds, spec_.rounds);
  for (const privacy::DpEvent& e : r.parts.final_events) r.ledgers->charge_all(e);
  if (r.parts.final_events != r.plan.final)
    throw std::logic_error(fmt::format(
        "algorithm {}: the run's events after the last round ({}) differ from its privacy "
        "plan's ({})",
        spec_.system->name(), config::events_text(r.parts.final_events),
        config::events_text(r.plan.final)));
  record(r);
  for (const auto& a : r.parts.agents) r.result.fallbacks += a->fallbacks();
  // Rows not reached by a release (none after the last), then the last row: everything.
  snapshot_rows(r, r.schedule.releases.size());
  charge_sent(r, std::numeric_limits<timeline::Tick>::max());  // sent after the last release
  snapshot(r, static_cast<std::size_t>(spec_.rounds));
  r.result.final_epsilon = r.result.epsilon.back();
  return std::move(r.result);
}

}  // namespace fbosim::run

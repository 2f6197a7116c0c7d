// fbosim privacy --q Q (--z Z | --target-epsilon E) --steps T|T1,T2,..|FIRST:LAST[:STRIDE]
//                (--agents N [--delta-rule default|paper] | --delta D) [--accountant A]
//                [--sampling poisson|fixed]
//                [--count-noise SIGMA_B] [--format text|csv]
// Several step counts print one line (text) or one CSV row each, from one composition pass.
// The event is the server's (server::DpMechanism::event, as a run composes it): with
// --count-noise, adaptive clipping's count release composed in each round.
// fbosim privacy CONFIG [--set key=value]... [--format text|csv]: the privacy loss a run of the
// config reports, without running: the ledger forecast (sim/run/privacy_ledger.hpp) composes the
// algorithm's privacy plan, the stop rules (server.budget, server.stop_p) decided by the run
// engine's own function, under server.accountant and every server.accountants.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/epsilon_series.hpp"
#include "algorithms/privacy/noise_calibration.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/personal_privacy_report.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/run_epsilon.hpp"
#include "sim/run/privacy_ledger.hpp"
#include "sim/run/release_charge.hpp"
#include "sim/run/schedule_ledgers.hpp"
#include "sim/run/schedule_stops.hpp"

namespace fbosim::cli {

namespace {
// A bad option value is a usage error (exit 2); the value is printed short (%g).
void check(bool ok, const char* option, const char* what, double value) {
  if (!ok) throw UsageError(fmt::format("{}, got {:g}", what, value), option);
}

// An approximation (gdp) is marked wherever its epsilon is printed: on stdout after the text,
// on stderr with --format csv (the table stays machine-readable).
void approximation_note(const PrivacyArgs& a) {
  if (privacy::make_accountant(a.accountant)->is_bound()) return;
  std::fprintf(a.format == "csv" ? stderr : stdout,
               "note: %s is the central-limit approximation (Bu et al. 2020), not a bound: it can "
               "fall below the true epsilon (use pld or rdp for a bound)\n",
               a.accountant.c_str());
}

// With --count-noise: the text's note and the CSV's last column (absent without it, so that the
// table stays the one of fixed clipping).
std::string count_text(const PrivacyArgs& a) {
  return a.count_noise > 0 ? fmt::format(", count noise sigma_b = {:g}", a.count_noise) : "";
}
std::string count_header(const PrivacyArgs& a) { return a.count_noise > 0 ? ",count_noise" : ""; }
std::string count_cell(const PrivacyArgs& a) {
  return a.count_noise > 0 ? fmt::format(",{}", a.count_noise) : "";
}

// Many step counts: one composition pass (z given) or one calibration per count.
void run_series(const PrivacyArgs& a, const std::vector<int>& steps, bool calibrate, double delta,
                const std::function<privacy::DpEvent(double)>& event_of) {
  std::vector<double> zs(steps.size(), a.z);
  std::vector<privacy::EpsilonResult> rs;
  if (calibrate) {
    for (std::size_t k = 0; k < steps.size(); ++k) {
      zs[k] = privacy::calibrate_noise(a.accountant, event_of, steps[k], delta, a.target)
                  .noise_multiplier;
      rs.push_back(privacy::epsilon_series(a.accountant, event_of(zs[k]), {steps[k]}, delta)[0]);
    }
  } else {
    try {
      rs = privacy::epsilon_series(a.accountant, event_of(a.z), steps, delta);
    } catch (const std::domain_error& e) {
      throw std::domain_error(fmt::format("--q {:g} --z {:g}: {}", a.q, a.z, e.what()));
    }
  }
  if (a.format == "csv")
    std::printf("accountant,sampling,q,z,steps,delta,epsilon,order%s\n", count_header(a).c_str());
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (a.format == "csv") {
      std::printf("%s%s\n",
                  fmt::format("{},{},{},{},{},{},{},{}", a.accountant, a.sampling, a.q, zs[k],
                              steps[k], delta, rs[k].epsilon, rs[k].order)
                      .c_str(),
                  count_cell(a).c_str());
    } else {
      std::printf("steps %d: epsilon = %.4f (z = %g)\n", steps[k], epsilon_shown(rs[k].epsilon),
                  zs[k]);
    }
  }
  if (a.format == "text")
    std::printf("at delta = %.4g (%s accountant, %s sampling, q = %g%s)%s\n", delta,
                a.accountant.c_str(), a.sampling.c_str(), a.q, count_text(a).c_str(),
                a.accountant == "pld" ? "; pld: the upper end of its bracket" : "");
  approximation_note(a);
}

}  // namespace

void run(const PrivacyArgs& a, bool calibrate, bool has_delta) {
  check(a.q > 0 && a.q <= 1, "--q", "must be in (0, 1]", a.q);
  if (!calibrate) check(a.z > 0 && std::isfinite(a.z), "--z", "must be finite and > 0", a.z);
  if (calibrate)
    check(a.target > 0 && std::isfinite(a.target), "--target-epsilon", "must be finite and > 0",
          a.target);
  std::vector<int> counts;
  try {
    counts = privacy::parse_steps(a.steps);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what(), "--steps");
  }
  // --delta wins over --agents (which also gives N for fixed-size sampling).
  if (has_delta) check(a.delta > 0 && a.delta < 1, "--delta", "must be in (0, 1)", a.delta);
  // Without --delta, the delta a run of N agents has under the same rule (issue 39).
  const config::DeltaRule rule = config::kDeltaRuleNames.parse(a.delta_rule);
  const double delta = has_delta ? a.delta : config::rule_delta(rule, a.agents);
  if (!has_delta)
    check(delta < 1, "--agents",
          "must be >= 2 with --delta-rule paper and no --delta (N^-1.1 must be < 1)", a.agents);
  const privacy::Sampling sampling = privacy::parse_sampling(a.sampling);
  if (sampling == privacy::Sampling::fixed && a.agents <= 0)
    throw std::invalid_argument("--sampling fixed needs --agents N (the batch is floor(N q))");
  if (a.count_noise_given)
    check(a.count_noise > 0 && std::isfinite(a.count_noise), "--count-noise",
          "must be finite and > 0", a.count_noise);
  // The run's own event (DpMechanism::event): with --count-noise, Composed(the messages'
  // subsampled Gaussian, the count's).
  const auto event_of = [&](double z) {
    server::DpMechanism::Options o;
    o.sampling = sampling;
    o.sampling_rate = a.q;
    o.noise_multiplier = z;
    if (a.count_noise > 0) {
      o.clipping = server::Clipping::adaptive;
      o.clip_count_noise = a.count_noise;
    }
    return server::DpMechanism::event(o, static_cast<std::size_t>(std::max(a.agents, 0)));
  };
  if (counts.size() > 1) return run_series(a, counts, calibrate, delta, event_of);
  const int steps = counts[0];
  double z = a.z;
  privacy::EpsilonResult r{0, 0};
  if (calibrate)
    z = privacy::calibrate_noise(a.accountant, event_of, steps, delta, a.target).noise_multiplier;
  const privacy::DpEvent event = event_of(z);
  const auto accountant = privacy::make_accountant(a.accountant);
  accountant->compose(event, steps);
  // pld reports the upper end of its bracket; the bracket itself is printed in text mode.
  const auto* pld = dynamic_cast<const privacy::PldAccountant*>(accountant.get());
  privacy::EpsilonBounds bracket{0, 0};
  const auto no_epsilon = [&](const std::string& why) {
    return std::domain_error(
        fmt::format("the {} accountant gives no finite epsilon for --q {:g} --z {:g} over {} "
                    "steps at delta = {:g}: {}",
                    a.accountant, a.q, z, steps, delta, why));
  };
  try {
    if (steps > 0 && pld && a.format == "text") {
      bracket = pld->epsilon_bounds(delta);
      r = {bracket.upper, 0};
    } else if (steps > 0) {
      r = accountant->epsilon(delta);
    }
  } catch (const std::domain_error& e) {  // the accountant cannot answer: say for what
    throw no_epsilon(e.what());
  }
  if (!std::isfinite(r.epsilon))  // never a silent infinity
    throw no_epsilon(a.accountant == "rdp" ? "the noise multiplier is too small for any bound"
                                           : "try rdp");
  if (a.format == "csv") {
    std::printf("accountant,sampling,q,z,steps,delta,epsilon,order%s\n%s,%s,%s,%s,%d,%s,%s,%s%s\n",
                count_header(a).c_str(), a.accountant.c_str(), a.sampling.c_str(),
                fmt::format("{}", a.q).c_str(), fmt::format("{}", z).c_str(), steps,
                fmt::format("{}", delta).c_str(), fmt::format("{}", r.epsilon).c_str(),
                fmt::format("{}", r.order).c_str(), count_cell(a).c_str());
    approximation_note(a);
    return;
  }
  if (calibrate)
    std::printf("z = %.6g is the smallest noise multiplier reaching epsilon <= %g: ", z, a.target);
  // Only the Renyi accountants optimise over an order; the others report none.
  const std::string order = r.order > 0 ? fmt::format("; optimal order {:g}", r.order) : "";
  std::printf(
      "epsilon = %.4f at delta = %.4g (%s accountant, %s sampling, q = %g, z = %g%s, %d steps%s)\n",
      epsilon_shown(r.epsilon), delta, a.accountant.c_str(), a.sampling.c_str(), a.q, z,
      count_text(a).c_str(), steps, order.c_str());
  approximation_note(a);
  if (pld && steps > 0) {
    // Rounded outwards, so the printed bracket still holds the true epsilon.
    std::printf("pld: the true epsilon lies in [%.4f, %.4f] (grid width %.3g)\n",
                std::floor(bracket.lower * 1e4) / 1e4, std::ceil(bracket.upper * 1e4) / 1e4,
                pld->grid_width());
    privacy::RdpAccountant rdp;
    rdp.compose(event, steps);
    const double e_rdp = rdp.epsilon(delta).epsilon;
    if (bracket.upper > e_rdp)
      std::printf(
          "note: pld's upper bound exceeds rdp's %.4f by %.4f, within pld's discretisation "
          "error (its bracket is %.4f wide): both are sound, so epsilon <= %.4f\n",
          e_rdp, bracket.upper - e_rdp, bracket.upper - bracket.lower, e_rdp);
  }
}
namespace {

// `fbosim privacy CONFIG` under an asynchronous schedule: every run's per-agent ledgers replayed
// from its time line alone (no objective evaluated; the run reports the same epsilons). Text:
// per accountant the largest epsilon over runs and agents, and its median and 90th percentile
// over the agents of that run; CSV: one row per run and agent.
void run_schedule_config(const PrivacyArgs& a, const config::ExperimentSpec& spec) {
  const double delta = spec.delta();
  const std::string kind(protocol::kScheduleKindNames.name(spec.schedule.kind));
  std::vector<std::vector<std::vector<double>>> eps;  // [run][accountant][agent]
  std::vector<std::string> names = spec.server.accountants;
  names.insert(names.begin(), spec.server.accountant);
  int stopped = 0, first_stop = INT_MAX;  // runs whose server a stop rule stopped; the earliest
  for (int r = 0; r < spec.runs; ++r) {
    run::ScheduleReplay replay = run::replay_schedule(spec, r);
    eps.emplace_back();
    for (std::size_t i = 0; i < names.size(); ++i)
      eps.back().push_back(replay.ledgers.epsilons(i, fmt::format("in run {}", r)));
    if (replay.server_releases < replay.releases) {
      ++stopped;
      first_stop = std::min(first_stop, replay.server_releases);
    }
  }
  if (a.format == "csv") {
    std::string header = "run,agent";
    for (const std::string& n : names) header += ",epsilon_" + n;
    std::printf("%s\n", header.c_str());
    for (int r = 0; r < spec.runs; ++r)
      for (int n = 0; n < spec.agents; ++n) {
        std::string row = fmt::format("{},{}", r, n);
        for (std::size_t i = 0; i < names.size(); ++i)
          row +=
              fmt::format(",{}", eps[static_cast<std::size_t>(r)][i][static_cast<std::size_t>(n)]);
        std::printf("%s\n", row.c_str());
      }
    return;
  }
  std::printf(
      "%s: the per-agent privacy loss of each of its %d runs under schedule.kind %s, replayed "
      "from the time line without evaluating anything\n  %s\n",
      a.config.c_str(), spec.runs, kind.c_str(), spec.epsilon_notion());
  const std::string trust =
      run::trust_notion(run::charge_rule(spec, spec.system->privacy_plan(spec.agents)));
  if (!trust.empty()) std::printf("  %s\n", trust.c_str());
  if (!spec.is_private()) std::printf("  nothing private is released\n");
  if (stopped > 0)
    std::printf(
        "  server.budget / server.stop_p stopped the server's releases in %d of %d runs, the "
        "earliest before release %d (the agents then take local TS steps)\n",
        stopped, spec.runs, first_stop);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::size_t worst = 0;
    double top = -1;
    for (std::size_t r = 0; r < eps.size(); ++r) {
      const double m = *std::max_element(eps[r][i].begin(), eps[r][i].end());
      if (m > top) {
        top = m;
        worst = r;
      }
    }
    const privacy::EpsilonSpread s = privacy::spread(eps[worst][i]);
    std::printf(
        "  epsilon = %.4f at delta = %.4g (%s accountant, %s): the largest over runs and agents "
        "(run %zu; its agents' median %.4f, 90th percentile %.4f)\n",
        epsilon_shown(s.max), delta, names[i].c_str(),
        i == 0 ? "server.accountant" : "server.accountants", worst, epsilon_shown(s.median),
        epsilon_shown(s.p90));
  }
}

}  // namespace

// `fbosim privacy CONFIG`: the run's ledger from the config alone.
void run_config(const PrivacyArgs& a) {
  const config::LoadedConfig c = config::load_config(a.config, a.sets);
  const config::ExperimentSpec& spec = c.spec;
  // Personal rates and budgets: every agent's own ledger, replayed (issue 42 sec. 2), under
  // every schedule.
  if (!spec.system->privacy_plan(spec.agents).agent_round.empty())
    return run_personal_config(a, spec);
  if (spec.schedule.kind != protocol::ScheduleKind::rounds) return run_schedule_config(a, spec);
  const run::LedgerForecast f = run::forecast_ledger(spec);
  const bool rounds_private = !f.plan.round.as<privacy::NoOp>();
  const double delta = spec.delta();
  const auto key = [](std::size_t i) {
    return i == 0 ? "server.accountant" : "server.accountants";
  };
  if (a.format == "csv") {
    std::printf("accountant,key,delta,rounds,server_stop,epsilon_at_stop,epsilon\n");
    for (std::size_t i = 0; i < f.accountants.size(); ++i)
      std::printf(
          "%s\n",
          fmt::format("{},{},{},{},{},{},{}", f.accountants[i], key(i), delta, spec.rounds,
                      rounds_private ? fmt::format("{}", f.server_stop) : "",
                      rounds_private ? fmt::format("{}", f.at_stop[i]) : "", f.epsilon[i].back())
              .c_str());
  } else {
    const auto list = [](const std::vector<privacy::DpEvent>& e) {
      return e.empty() ? std::string("none") : config::events_text(e);
    };
    std::printf(
        "%s: the privacy loss of every run (its ledger, composed from the config without "
        "running)\n  releases: before round 0: %s; each round the server aggregates: %s; after "
        "the last round: %s\n",
        a.config.c_str(), list(f.plan.setup).c_str(),
        rounds_private ? privacy::to_string(f.plan.round).c_str() : "none",
        list(f.plan.final).c_str());
    if (rounds_private && f.server_stop < spec.rounds) {
      std::string why;
      if (f.plan.budget) why += fmt::format("server.budget = {:g}", *f.plan.budget);
      if (f.plan.server_rounds < spec.rounds)
        why += fmt::format("{}server.stop_p: at most {} rounds", why.empty() ? "" : "; ",
                           std::max(f.plan.server_rounds, 0));
      std::printf(
          "  the server aggregates %s of %d and stops before round %d (%s): epsilon at the stop "
          "= %.4f\n",
          f.server_stop == 0 ? "no round" : fmt::format("rounds 0..{}", f.server_stop - 1).c_str(),
          spec.rounds, f.server_stop, why.c_str(), epsilon_shown(f.at_stop[0]));
    } else if (rounds_private) {
      std::printf("  the server aggregates every round, 0..%d\n", spec.rounds - 1);
    }
    if (!spec.is_private()) std::printf("  nothing private is released\n");
    for (std::size_t i = 0; i < f.accountants.size(); ++i)
      std::printf("  epsilon = %.4f at delta = %.4g (%s accountant, %s)\n",
                  epsilon_shown(f.epsilon[i].back()), delta, f.accountants[i].c_str(), key(i));
  }
  for (std::size_t i = 1; i < f.accountants.size(); ++i)
    if (!privacy::make_accountant(f.accountants[i])->is_bound())
      std::fprintf(a.format == "csv" ? stderr : stdout,
                   "note: %s is the central-limit approximation (Bu et al. 2020), not a bound: it "
                   "can fall below the true epsilon\n",
                   f.accountants[i].c_str());
}

}  // namespace fbosim::cli

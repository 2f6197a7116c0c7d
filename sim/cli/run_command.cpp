// fbosim run CONFIG.yaml [--set key=value]... [--runs R] [--seed S] [--threads K] [--out DIR]
//            [--accountants A,B] [--force] [--allow-exec]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/thread_pool.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_observer.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/resource_estimate.hpp"
#include "sim/config/user_program.hpp"
#include "sim/run/clip_pilot.hpp"
#include "sim/run/experiment_runner.hpp"

namespace fbosim::cli {

void run(const RunArgs& a) {
  std::vector<std::string> overrides = a.sets;
  // --runs and --seed are shorthands for --set runs=R / --set seed=S (applied last).
  if (a.runs > 0) overrides.push_back(fmt::format("runs={}", a.runs));
  if (a.seed >= 0) overrides.push_back(fmt::format("seed={}", a.seed));
  if (!a.accountants.empty())
    overrides.push_back(fmt::format("server.accountants=\"{}\"", a.accountants));
  const config::LoadedConfig cfg = config::load_config(a.config, overrides);
  if (const auto program = config::objective_program(cfg.spec, overrides))
    config::check_user_programs({*program}, a.config, a.allow_exec);
  // Warnings, not part of the summary: shown even with --quiet.
  if (const std::string w = cfg.spec.delta_warning(); !w.empty())
    std::fprintf(stderr, "fbosim: warning: %s\n", w.c_str());
  run::RunOptions options;
  options.threads = a.threads > 0 ? a.threads : core::ThreadPool::hardware_threads();
  options.out_dir = a.out;
  options.progress = !a.quiet;
  options.force = a.force;
  options.on_round = run_observer();
  if (!a.quiet) {
    // A long run is announced with its (upper) estimated time, so that a mistaken size is seen
    // before hours are spent (the estimate refuses only absurd sizes).
    const config::ResourceEstimate e = config::estimate_resources(cfg.spec);
    const double seconds = config::estimated_seconds(e, options.threads);
    if (seconds > config::kNoteSeconds)
      std::fprintf(stderr,
                   "fbosim: note: %s may take up to about %s on %d thread(s) (an upper estimate; "
                   "the largest part: %s); Ctrl-C stops it and keeps the finished runs\n",
                   cfg.spec.name.c_str(), config::duration_text(seconds).c_str(), options.threads,
                   config::ResourceEstimate::largest(e.work).what.c_str());
  }
  const run::ExperimentSummary s = run::run_experiment(cfg.spec, cfg.resolved, options);
  // A warning, not part of the summary: shown even with --quiet.
  if (s.fallbacks > 0)
    std::fprintf(stderr,
                 "fbosim: note: %d posterior samples fell back to a data-independent draw\n",
                 s.fallbacks);
  if (const std::string w = run::clipping_warning(cfg.spec, s.clipped_fraction); !w.empty())
    std::fprintf(stderr, "fbosim: warning: %s\n", w.c_str());
  if (a.quiet) return;  // errors and warnings still go to stderr
  // The s.e. is over the runs' means unless standard_error: pairs; one run has none.
  const std::string over = cfg.spec.se_over_pairs ? "over (agent, run) pairs" : "over runs";
  const auto pm = [&](double mean, double se) {
    return std::isfinite(se) ? fmt::format("{:.4f} +- {:.4f}", mean, se)
                             : fmt::format("{:.4f} (one run: no s.e.)", mean);
  };
  const std::string regret =
      std::isfinite(s.final_mean_regret)
          ? pm(s.final_mean_regret, s.final_se_regret) +
                (std::isfinite(s.final_se_regret) ? " (mean +- s.e. " + over + ")" : "")
          : std::string("n/a (the objective's optimum is unknown)");
  std::printf(
      "%s: %d run(s) x %d agents x %d rounds in %.2f s (%d threads)\n"
      "  final simple regret %s\n"
      "  final best f        %s\n"
      "  epsilon %.4f (delta %.3g, %s accountant)%s, clipped %.2f%% of messages\n"
      "  wrote %s/{trace,server,summary,timing%s}.csv, config.resolved.yaml and provenance.yaml\n",
      cfg.spec.name.c_str(), s.runs, s.agents, s.rounds, s.seconds, options.threads, regret.c_str(),
      pm(s.final_mean_best_f, s.final_se_best_f).c_str(), epsilon_shown(s.epsilon),
      cfg.spec.delta(), cfg.spec.server.accountant.c_str(), cfg.spec.is_private() ? "" : " [no DP]",
      100 * s.clipped_fraction, s.out_dir.c_str(),
      fmt::format("{}{}", cfg.spec.system->releases_values() ? ",release" : "",
                  cfg.spec.per_agent_ledgers ? ",agents" : "")
          .c_str());
  if (s.server_stop && cfg.spec.schedule.kind != protocol::ScheduleKind::rounds)
    std::printf(
        "  the server stopped releasing before release %d (server.budget or server.stop_p): "
        "every query after it is local TS (server.csv's `aggregating`)\n",
        *s.server_stop);
  else if (s.server_stop)
    std::printf(
        "  the server stopped aggregating at round %d of %d (server.budget or server.stop_p): "
        "every query after it is local TS (server.csv's `aggregating`)\n",
        *s.server_stop, s.rounds);
}

}  // namespace fbosim::cli

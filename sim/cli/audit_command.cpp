// fbosim audit CONFIG [--set key=value]... [--trials N] [--seed S] [--threads K]
//                     [--confidence C] [--noise-scale X] [--format text|csv]
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "algorithms/systems/po_gp_ucb_system.hpp"
#include "sim/audit/curator_audit.hpp"
#include "sim/audit/privacy_audit.hpp"
#include "sim/cli/commands.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/core/thread_pool.hpp"

namespace fbosim::cli {

namespace {
struct AuditArgs {
  std::string config;
  std::vector<std::string> sets;
  audit::AuditOptions options;
  unsigned long long seed = 0;
  int threads = 0;
  std::string format = "text";
};

// Usage errors (exit 2): the option and the value, before anything runs.
void check_args(const AuditArgs& a) {
  const auto fail = [](const std::string& what) { throw CLI::ValidationError(what, 2); };
  const int t = a.options.trials;
  if (t < 100 || t > 100000000) fail(fmt::format("--trials must be in [100, 1e8], got {}", t));
  const double x = a.options.noise_scale;
  if (!(std::isfinite(x) && x > 0))
    fail(fmt::format("--noise-scale must be a finite number > 0, got {}", x));
  const double c = a.options.confidence;
  if (!(c > 0 && c < 1)) fail(fmt::format("--confidence must be in (0, 1), got {}", c));
}

// PO-GP-UCB's curator: the separation test of spec po-gp-ucb.md sec. 7.19.
int run_curator(const config::LoadedConfig& cfg, const audit::AuditOptions& o, const AuditArgs& a) {
  const audit::CuratorAuditResult r = audit::run_curator_audit(cfg.spec, o, a.seed);
  if (a.format == "csv") {
    std::printf(
        "rows,dim,r,lift,sigma_min,omega,branch,trials,threshold,max_null,min_neighbour,fpr,"
        "fpr_upper,fnr,fnr_upper,epsilon_estimate,epsilon_lower,epsilon_claimed,delta_claimed,"
        "verdict\n");
    std::printf("%s\n", fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                                    r.rows, r.dim, r.r, r.lift, r.sigma_min, r.omega,
                                    r.lifted ? "else" : "if", r.trials, r.threshold, r.max_null,
                                    r.min_neighbour, r.fpr, r.fpr_upper, r.fnr, r.fnr_upper,
                                    r.epsilon_estimate, r.epsilon_lower, r.epsilon_claimed,
                                    r.delta_claimed, r.violation() ? "VIOLATION" : "consistent")
                            .c_str());
  } else {
    std::printf(
        "audit of %s: PO-GP-UCB's curator (Algorithm 1), n = %d rows of dimension %d, r = %d\n"
        "  sigma_min = %.6g, omega = %.6g: the %s branch (lift: %s)\n"
        "  neighbour: row 0 moved by a unit vector (Definition 1); statistic |u^T Z| / |Z|, u "
        "orthogonal to 1 and to the centred X\n"
        "  %d trials per input measured (as many used to choose the threshold %.3g)\n"
        "  statistic: at most %.3g for X, at least %.3g for its neighbour\n"
        "  false positives %lld (rate %.3g, upper %.3g), false negatives %lld (rate %.3g, upper "
        "%.3g)\n"
        "  empirical epsilon >= %.4f with %g%% confidence (point estimate %s)\n"
        "  claimed (Theorem 1): (%.4f, %.3g)-DP\n"
        "  verdict: %s\n",
        cfg.spec.name.c_str(), r.rows, r.dim, r.r, r.sigma_min, r.omega, r.lifted ? "else" : "if",
        r.lift.c_str(), r.trials, r.threshold, r.max_null, r.min_neighbour, r.false_positives,
        r.fpr, r.fpr_upper, r.false_negatives, r.fnr, r.fnr_upper, r.epsilon_lower,
        100 * o.confidence,
        r.false_positives == 0 && r.false_negatives == 0
            ? "unbounded: no errors at all"
            : fmt::format("{:.4f}", r.epsilon_estimate).c_str(),
        r.epsilon_claimed, r.delta_claimed,
        r.violation() ? "VIOLATION: the neighbours are told apart more often than the claim allows"
                      : "consistent (the audit stays below the claim)");
  }
  return r.violation() ? 3 : 0;
}

int run(const AuditArgs& a) {
  const config::LoadedConfig cfg = config::load_config(a.config, a.sets);
  audit::AuditOptions o = a.options;
  o.threads = a.threads > 0 ? a.threads : core::ThreadPool::hardware_threads();
  if (dynamic_cast<const systems::PoGpUcbSystem*>(cfg.spec.system.get()))
    return run_curator(cfg, o, a);
  const audit::AuditResult r = audit::run_audit(cfg.spec, o, a.seed);
  const auto& m = cfg.spec.fts_de()->mechanism;  // run_audit checked it is DP-FTS-DE
  const int subregions = cfg.spec.fts_de()->subregions;
  if (a.format == "csv") {
    std::printf(
        "q,z,clip_norm,subregions,agents,trials,threshold,fpr,fpr_upper,fnr,fnr_upper,"
        "epsilon_estimate,epsilon_lower,accountant,epsilon_upper,delta,verdict,round,canary,"
        "sensitivity_fraction\n");
    std::printf("%s\n",
                fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                            m.sampling_rate, m.noise_multiplier, m.clip_norm, subregions,
                            cfg.spec.agents, r.trials, r.threshold, r.fpr, r.fpr_upper, r.fnr,
                            r.fnr_upper, r.epsilon_estimate, r.epsilon_lower, r.accountant,
                            r.epsilon_upper, r.delta, r.violation() ? "VIOLATION" : "consistent",
                            r.round, r.canary, r.sensitivity_fraction)
                    .c_str());
  } else {
    std::printf(
        "audit of %s: one release, q = %g, z = %g%s, S = %g, P = %d, N = %d\n"
        "  canary: agent %d with the DE weights of round %d, shift %.3g of the sensitivity\n"
        "  %d trials per input measured (as many used to choose the threshold %.4g)\n"
        "  false positives %lld (rate %.3g, upper %.3g), false negatives %lld (rate %.3g, upper "
        "%.3g)\n"
        "  empirical epsilon >= %.4f with %g%% confidence (point estimate %.4f)\n"
        "  %s accountant: epsilon <= %.4f at delta = %.3g\n"
        "  verdict: %s\n",
        cfg.spec.name.c_str(), m.sampling_rate, m.noise_multiplier,
        o.noise_scale != 1
            ? fmt::format(" (noise scaled by {} in the audited mechanism)", o.noise_scale).c_str()
            : "",
        m.clip_norm, subregions, cfg.spec.agents, r.canary, r.round, r.sensitivity_fraction,
        r.trials, r.threshold, r.false_positives, r.fpr, r.fpr_upper, r.false_negatives, r.fnr,
        r.fnr_upper, r.epsilon_lower, 100 * o.confidence, r.epsilon_estimate, r.accountant.c_str(),
        r.epsilon_upper, r.delta,
        r.violation() ? "VIOLATION: the audit exceeds the accountant's bound"
                      : "consistent (the audit stays below the bound)");
  }
  return r.violation() ? 3 : 0;
}
}  // namespace

void add_audit_command(CLI::App& app) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* cmd = app.add_subcommand(
      "audit",
      "Empirical lower bound on epsilon of a config's server mechanism (one release) or, for "
      "po_gp_ucb, of its curator's release, next to the claimed upper bound; exits 3 on a "
      "violation");
  cmd->add_option("config", args->config, "Experiment YAML")->required();
  cmd->add_option("--set", args->sets, "Override a config key")->type_name("KEY=VALUE");
  cmd->add_option("--trials", args->options.trials, "Trials per input (default 100000)");
  cmd->add_option("--seed", args->seed, "Seed of the audit's streams");
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--confidence", args->options.confidence,
                  "Confidence of the Clopper-Pearson bounds (default 0.95)");
  cmd->add_option("--noise-scale", args->options.noise_scale,
                  "Scale the audited mechanism's noise (e.g. 0.5: a broken mechanism, to check "
                  "that the audit catches it)");
  cmd->add_option("--format", args->format, "text or csv")
      ->check(CLI::IsMember({"text", "csv"}))
      ->default_str("text");
  cmd->callback([args] {
    check_args(*args);
    const int status = run(*args);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace fbosim::cli

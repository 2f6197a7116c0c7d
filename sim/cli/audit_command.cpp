// fbosim audit CONFIG [--set key=value]... [--trials N] [--seed S] [--threads K]
//                     [--confidence C] [--noise-scale X] [--format text|csv]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/thread_pool.hpp"
#include "sim/audit/privacy_audit.hpp"
#include "sim/cli/commands.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/user_program.hpp"
#include "sim/output/csv_table.hpp"

namespace fbosim::cli {

namespace {
// Usage errors (exit 2): the option and the value, before anything runs.
void check_args(const AuditArgs& a) {
  const auto fail = [](const std::string& what) { throw UsageError(what); };
  const int t = a.options.trials;
  if (t < 100 || t > 100000000) fail(fmt::format("--trials must be in [100, 1e8], got {}", t));
  const double x = a.options.noise_scale;
  if (!(std::isfinite(x) && x > 0))
    fail(fmt::format("--noise-scale must be a finite number > 0, got {}", x));
  const double c = a.options.confidence;
  if (!(c > 0 && c < 1)) fail(fmt::format("--confidence must be in (0, 1), got {}", c));
}

std::string verdict(const audit::AuditResult& r) {
  return r.violation() ? "VIOLATION: the audit exceeds the claimed bound"
                       : "consistent (the audit stays below the claimed bound)";
}

void print_text(const std::string& config, const audit::AuditResult& r, double confidence) {
  std::printf("audit of %s: %s\n", config.c_str(), r.release.c_str());
  for (const auto& [name, value] : r.details)
    std::printf("  %s: %s\n", name.c_str(), value.c_str());
  std::printf(
      "  inputs: D = %s, D' = %s\n"
      "  %d trials per input measured (as many used to choose the threshold %.4g)\n"
      "  observed: s at most %.3g for D, at least %.3g for D'\n"
      "  false positives %lld (rate %.3g, upper %.3g), false negatives %lld (rate %.3g, upper "
      "%.3g)\n"
      "  empirical epsilon >= %.4f with %g%% confidence (point estimate %s)\n"
      "  claimed (%s): epsilon <= %.4f at delta = %.3g\n"
      "  verdict: %s\n",
      r.inputs.first.c_str(), r.inputs.second.c_str(), r.trials, r.threshold, r.max_first,
      r.min_neighbour, r.false_positives, r.fpr, r.fpr_upper, r.false_negatives, r.fnr, r.fnr_upper,
      r.epsilon_lower, 100 * confidence,
      r.false_positives == 0 && r.false_negatives == 0
          ? "unbounded: no errors at all"
          : fmt::format("{:.4f}", r.epsilon_estimate).c_str(),
      r.accountant.c_str(), r.epsilon_upper, r.delta, verdict(r).c_str());
}

void print_csv(const std::vector<audit::AuditResult>& results) {
  std::printf(
      "release,trials,threshold,fpr,fpr_upper,fnr,fnr_upper,epsilon_estimate,epsilon_lower,"
      "accountant,epsilon_upper,delta,verdict,details\n");
  for (const audit::AuditResult& r : results) {
    std::string details;
    for (const auto& [name, value] : r.details)
      details += (details.empty() ? "" : "; ") + name + "=" + value;
    std::printf(
        "%s\n",
        fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}", output::csv_field(r.release),
                    r.trials, r.threshold, r.fpr, r.fpr_upper, r.fnr, r.fnr_upper,
                    r.epsilon_estimate, r.epsilon_lower, r.accountant, r.epsilon_upper, r.delta,
                    r.violation() ? "VIOLATION" : "consistent", output::csv_field(details))
            .c_str());
  }
}

}  // namespace

int run(const AuditArgs& a) {
  check_args(a);
  const config::LoadedConfig cfg = config::load_config(a.config, a.sets);
  if (const auto program = config::objective_program(cfg.spec, a.sets))
    config::check_user_programs({*program}, a.config, a.allow_exec);
  audit::AuditOptions o = a.options;
  o.threads = a.threads > 0 ? a.threads : core::ThreadPool::hardware_threads();
  std::vector<audit::AuditResult> results;
  try {
    results = audit::run_audits(cfg.spec, o, a.seed);
  } catch (const std::invalid_argument& e) {  // nothing auditable, or not with these options
    throw std::invalid_argument(a.config + ": " + e.what());
  }
  if (a.format == "csv") {
    print_csv(results);
  } else {
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (i > 0) std::printf("\n");
      print_text(cfg.spec.name, results[i], o.confidence);
    }
  }
  const bool violation = std::any_of(results.begin(), results.end(),
                                     [](const audit::AuditResult& r) { return r.violation(); });
  return violation ? 3 : 0;
}

}  // namespace fbosim::cli

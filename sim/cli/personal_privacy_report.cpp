#include "sim/cli/personal_privacy_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "algorithms/systems/fts_de_system.hpp"
#include "sim/run/personal_replay.hpp"

namespace fbosim::cli {

namespace {

// Nearest rank: the smallest value at least a fraction p of the values are at or below.
double nearest_rank(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::max<std::size_t>(k, 1) - 1];
}

std::string budget_text(double b, const char* none) {
  return std::isfinite(b) ? fmt::format("{:g}", b) : std::string(none);
}

}  // namespace

void run_personal_config(const PrivacyArgs& a, const config::ExperimentSpec& spec) {
  const systems::FtsDeConfig* c = systems::fts_de_config(spec.system.get());
  const server::PersonalPrivacy& p = c->mechanism.personal;
  const auto n = static_cast<std::size_t>(spec.agents);
  std::vector<std::vector<double>> eps(n);  // [agent][run]
  std::vector<int> still(n, 0);             // runs in which the agent is eligible at the end
  if (a.format == "csv") std::printf("run,agent,tier,q,budget,epsilon,eligible\n");
  for (int r = 0; r < spec.runs; ++r) {
    run::PersonalReplay replay = run::replay_personal_ledgers(spec, r);
    const std::vector<double>& e = replay.ledgers.epsilons(0, fmt::format("in run {}", r));
    for (std::size_t k = 0; k < n; ++k) {
      eps[k].push_back(e[k]);
      still[k] += replay.eligible[k];
      const double budget = p.has_budgets() ? p.budgets[k] : INFINITY;
      if (a.format == "csv")
        std::printf("%s\n", fmt::format("{},{},{},{},{},{},{}", r, k, p.tiers[k], p.rates[k],
                                        budget_text(budget, ""), e[k], replay.eligible[k])
                                .c_str());
    }
  }
  if (a.format == "csv") return;
  std::printf(
      "%s: each agent's privacy loss under personal.* (q_ref = %g), replayed in each of its %d "
      "runs without evaluating anything: epsilon at delta = %.4g (%s accountant, "
      "server.accountant), the median and the 95th percentile over the runs\n",
      a.config.c_str(), p.q_ref, spec.runs, spec.delta(), spec.server.accountant.c_str());
  for (std::size_t k = 0; k < n; ++k) {
    const double budget = p.has_budgets() ? p.budgets[k] : INFINITY;
    std::printf(
        "  agent %zu (tier %d, q = %g, budget %s): epsilon %.4f, p95 %.4f; eligible to "
        "the end in %d of %d runs\n",
        k, p.tiers[k], p.rates[k], budget_text(budget, "none").c_str(),
        epsilon_shown(nearest_rank(eps[k], 0.5)), epsilon_shown(nearest_rank(eps[k], 0.95)),
        still[k], spec.runs);
  }
}

}  // namespace fbosim::cli

#include "sim/config/experiment_spec.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"

namespace fbosim::config {

std::string epsilon_column(const std::string& accountant) {
  return "epsilon_" + accountant +
         (privacy::make_accountant(accountant)->is_bound() ? "" : "_approx");
}

double rule_delta(DeltaRule rule, int agents) {
  const double n = agents;
  // The usual advice is delta well below 1/N (Dwork & Roth 2014, sec. 2.3): a mechanism that
  // publishes one agent's data outright with probability delta is (0, delta)-DP.
  if (rule == DeltaRule::standard) return std::min(1e-5, 1 / (10 * n));
  return std::pow(n, -1.1);
}

double ExperimentSpec::delta() const {
  return server.delta ? *server.delta : rule_delta(server.delta_rule, agents);
}

std::optional<double> ExperimentSpec::delta_times_agents() const {
  if (!delta_per_agent || !is_private()) return std::nullopt;
  return delta() * agents;
}

const char* ExperimentSpec::epsilon_notion() const {
  return timing.data_dependent() ? timeline::kDataDependentNotion
                                 : protocol::epsilon_notion(schedule.kind);
}

std::string ExperimentSpec::delta_warning() const {
  const std::optional<double> dn = delta_times_agents();
  if (!dn || !(*dn > kDeltaTimesAgentsWarning)) return "";
  return fmt::format(
      "delta = {:.3g} exceeds 1/(10 N) = {:.3g} for N = {} agents (delta x N = {:.3g}): by the "
      "union bound the chance that some agent's guarantee fails may exceed 10 %{}; set "
      "server.delta or server.delta_rule: default (min(1e-5, 1/(10 N)))",
      delta(), 1 / (10.0 * agents), agents, *dn,
      !server.delta && server.delta_rule == DeltaRule::paper
          ? " (server.delta_rule: paper gives N^-1.1, the paper's choice for its N = 200)"
          : "");
}

}  // namespace fbosim::config

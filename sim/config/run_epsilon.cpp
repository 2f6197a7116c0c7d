#include "sim/config/run_epsilon.hpp"

#include <cmath>
#include <exception>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"

namespace fbosim::config {

std::string events_text(const std::vector<privacy::DpEvent>& events) {
  std::string out;
  for (std::size_t i = 0, n; i < events.size(); i += n) {
    for (n = 1; i + n < events.size() && events[i + n] == events[i];) ++n;
    out += fmt::format("{}{}{}", out.empty() ? "" : ", ", to_string(events[i]),
                       n > 1 ? fmt::format(" x {}", n) : "");
  }
  return out;
}

double run_epsilon(const ExperimentSpec& spec, const std::string& accountant) {
  const std::vector<privacy::DpEvent> events = spec.system->run_events(spec.agents, spec.rounds);
  auto acc = privacy::make_accountant(accountant);
  for (const privacy::DpEvent& e : events) acc->compose(e);
  if (acc->steps() == 0) return 0;
  return acc->epsilon(spec.delta()).epsilon;
}

void check_run_epsilon(const std::string& source, const schema::Record& resolved,
                       const ExperimentSpec& spec, const std::vector<std::string>& keys) {
  std::vector<std::string> names = spec.server.accountants;
  names.insert(names.begin(), spec.server.accountant);
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string why;
    try {
      const double eps = run_epsilon(spec, names[i]);
      if (std::isfinite(eps)) continue;
      why = fmt::format("it gives {}", eps);
    } catch (const std::exception& e) {
      why = e.what();
    }
    std::string settings;
    for (const std::string& k : keys) {
      const schema::Resolved* v = resolved.find(k);
      settings += fmt::format("{}{} = {}", settings.empty() ? "" : ", ", k, v ? v->text : "");
    }
    throw ConfigError(fmt::format(
        "{}: {}{}the run's privacy loss has no finite epsilon at delta = {} (server.delta) "
        "under accountant '{}' ({}): {}; its releases: {}",
        source, settings, settings.empty() ? "" : ": ", spec.delta(), names[i],
        i == 0 ? "server.accountant" : "server.accountants", why,
        events_text(spec.system->run_events(spec.agents, spec.rounds))));
  }
}

}  // namespace fbosim::config

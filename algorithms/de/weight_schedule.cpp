#include "algorithms/de/weight_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::de {

WeightScheme parse_weight_scheme(const std::string& s) {
  return kWeightSchemeNames.parse(s, "weight scheme");
}

std::string to_string(WeightScheme s) { return kWeightSchemeNames.name(s); }

void WeightSchedule::validate(const Options& o) {
  // a_t >= 1 keeps the temperature T_t = a / (a_t - 1) of App. B in [1, +inf] (and h(a_t) >= h(1)
  // for the linear and quadratic weights of Fig. 9); a_t must be finite for the weights to be.
  if (!(std::isfinite(o.start) && o.start >= 1))
    throw std::invalid_argument(
        fmt::format("exploration.weights.start must be a finite number >= 1, got {}", o.start));
  if (!(std::isfinite(o.end) && o.end >= 1 && o.end <= o.start))
    throw std::invalid_argument(
        fmt::format("exploration.weights.end must be a finite number in [1, "
                    "exploration.weights.start = {}], got {}",
                    o.start, o.end));
  if (o.hold < 0)
    throw std::invalid_argument(
        fmt::format("exploration.weights.hold must be >= 0, got {}", o.hold));
  if (o.decay < 0)
    throw std::invalid_argument(
        fmt::format("exploration.weights.decay must be >= 0, got {}", o.decay));
}

WeightSchedule::WeightSchedule(Options options) : options_(options) { validate(options_); }

double WeightSchedule::a(int t) const {
  if (t < 0) throw std::invalid_argument(fmt::format("round t must be >= 0, got {}", t));
  const Options& o = options_;
  if (!o.adaptive || t <= o.hold) return o.start;  // Fig. 12: non-adaptive keeps a_t = start
  const int k = t - o.hold - 1;                    // index into linspace(start, end, decay)
  if (k >= o.decay) return o.end;
  if (o.decay == 1) return o.start;  // numpy's linspace(start, end, 1) == [start]
  // numpy's linspace sets its last point to end exactly: start + (end - start) cancels to 0
  // for start = 1e300.
  if (k == o.decay - 1) return o.end;
  return std::max(o.end, o.start + (o.end - o.start) * k / (o.decay - 1));
}

double WeightSchedule::log_ratio(int t) const {
  const double at = a(t);
  switch (options_.scheme) {
    case WeightScheme::softmax:
      return at - 1;  // exp((a + 1) / T_t) / exp(1 / T_t) = exp(a_t - 1), T_t = a / (a_t - 1)
    case WeightScheme::linear:
      return std::log(at);
    case WeightScheme::quadratic:
      return 2 * std::log(at);
    case WeightScheme::equal:
      return 0;
  }
  return 0;
}

Eigen::MatrixXd WeightSchedule::weights(int t, const std::vector<int>& agent_region,
                                        int regions) const {
  if (regions < 1)
    throw std::invalid_argument(fmt::format("regions must be >= 1, got {}", regions));
  if (agent_region.empty()) throw std::invalid_argument("weights: no agents");
  const auto n_agents = static_cast<Eigen::Index>(agent_region.size());
  for (Eigen::Index n = 0; n < n_agents; ++n) {
    const int r = agent_region[static_cast<std::size_t>(n)];
    if (r < 0 || r >= regions)
      throw std::invalid_argument(
          fmt::format("agent {} is assigned region {}, not in [0, {})", n, r, regions));
  }
  // Row i is a softmax over agents of the logits log h(a_t) (assigned to i) or log h(1) = 0
  // (not assigned), computed as exp(logit - max logit) / sum so that no exponential overflows:
  // exp(a_t - 1) itself overflows for a_t > 710 and used to turn every weight into 0 or NaN.
  const double lr = log_ratio(t);  // >= 0 since a_t >= 1
  Eigen::MatrixXd w(regions, n_agents);
  for (Eigen::Index i = 0; i < regions; ++i) {
    bool any_assigned = false;
    for (Eigen::Index n = 0; n < n_agents; ++n)
      any_assigned = any_assigned || agent_region[static_cast<std::size_t>(n)] == i;
    const double top = any_assigned ? lr : 0.0;
    for (Eigen::Index n = 0; n < n_agents; ++n)
      w(i, n) = std::exp((agent_region[static_cast<std::size_t>(n)] == i ? lr : 0.0) - top);
    w.row(i) /= w.row(i).sum();  // the sum is >= 1: an entry equals exp(0)
  }
  if (!w.allFinite())
    throw std::logic_error(
        fmt::format("DE weights of round {} are not finite (a_t = {})", t, a(t)));
  return w;
}

}  // namespace fbosim::de

#include "algorithms/de/weight_schedule.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::de {

WeightScheme parse_weight_scheme(const std::string& s) {
  if (s == "softmax") return WeightScheme::softmax;
  if (s == "linear") return WeightScheme::linear;
  if (s == "quadratic") return WeightScheme::quadratic;
  if (s == "equal") return WeightScheme::equal;
  throw std::invalid_argument(
      "weight scheme must be one of softmax, linear, quadratic, equal; got '" + s + "'");
}

std::string to_string(WeightScheme s) {
  switch (s) {
    case WeightScheme::softmax:
      return "softmax";
    case WeightScheme::linear:
      return "linear";
    case WeightScheme::quadratic:
      return "quadratic";
    case WeightScheme::equal:
      return "equal";
  }
  return "?";
}

double WeightSchedule::a(int t) const {
  if (t < 0) throw std::invalid_argument(fmt::format("round t must be >= 0, got {}", t));
  const Options& o = options_;
  if (!o.adaptive || t <= o.hold) return o.start;  // Fig. 12: non-adaptive keeps a_t = start
  const int k = t - o.hold - 1;                    // index into linspace(start, end, decay)
  if (k >= o.decay) return o.end;
  if (o.decay == 1) return o.start;  // numpy's linspace(start, end, 1) == [start]
  return o.start + (o.end - o.start) * k / (o.decay - 1);
}

Eigen::MatrixXd WeightSchedule::weights(int t, const std::vector<int>& agent_region,
                                        int regions) const {
  if (regions < 1)
    throw std::invalid_argument(fmt::format("regions must be >= 1, got {}", regions));
  if (agent_region.empty()) throw std::invalid_argument("weights: no agents");
  const auto n_agents = static_cast<Eigen::Index>(agent_region.size());
  if (options_.scheme == WeightScheme::equal)
    return Eigen::MatrixXd::Constant(regions, n_agents, 1.0 / static_cast<double>(n_agents));
  // Unnormalised weight of an assigned agent relative to an unassigned one, h(a_t) / h(1).
  // For softmax this is exp(a_t - 1), computed directly so exp(a_t) cannot overflow; it equals
  // the paper's exp((a + 1) / T_t) / exp(1 / T_t) with T_t = a / (a_t - 1) (App. B).
  const double at = a(t);
  double ratio = 1;
  switch (options_.scheme) {
    case WeightScheme::softmax:
      ratio = std::exp(at - 1);
      break;
    case WeightScheme::linear:
      ratio = at;
      break;
    case WeightScheme::quadratic:
      ratio = at * at;
      break;
    case WeightScheme::equal:
      break;
  }
  Eigen::MatrixXd w = Eigen::MatrixXd::Ones(regions, n_agents);
  for (Eigen::Index n = 0; n < n_agents; ++n) {
    const int r = agent_region[static_cast<std::size_t>(n)];
    if (r < 0 || r >= regions)
      throw std::invalid_argument(
          fmt::format("agent {} is assigned region {}, not in [0, {})", n, r, regions));
    w(r, n) = ratio;
  }
  for (Eigen::Index i = 0; i < regions; ++i) w.row(i) /= w.row(i).sum();
  return w;
}

}  // namespace fbosim::de

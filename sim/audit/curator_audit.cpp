#include "sim/audit/curator_audit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "algorithms/curator/separating_vector.hpp"
#include "algorithms/systems/po_gp_ucb_system.hpp"
#include "sim/core/cancellation.hpp"
#include "sim/core/thread_pool.hpp"

namespace fbosim::audit {

CuratorAuditResult run_curator_audit(const config::ExperimentSpec& spec, const AuditOptions& o,
                                     std::uint64_t seed) {
  const auto* po = dynamic_cast<const systems::PoGpUcbSystem*>(spec.system.get());
  if (!po || !po->is_private_variant())
    throw std::invalid_argument(fmt::format(
        "the curator audit needs a po_gp_ucb config; algorithm {} has no curator", spec.algorithm));
  if (o.trials < 100)
    throw std::invalid_argument(fmt::format("--trials must be >= 100, got {}", o.trials));
  if (!(o.confidence > 0 && o.confidence < 1))
    throw std::invalid_argument(
        fmt::format("--confidence must be in (0, 1), got {}", o.confidence));
  const systems::PoGpUcbConfig& c = po->config();
  // The dataset of run 0, normalised as the system does.
  const auto family = datasets::make_objective_family(spec.objective);
  const auto objectives = family->make(1, core::RngFactory(spec.seed, 0));
  const core::Domain& domain = objectives[0]->domain();
  if (!domain.is_grid()) throw std::invalid_argument("the curator audit needs a finite dataset");
  const Eigen::MatrixXd X = curator::normalise(domain.grid, c.max_norm).X;
  Eigen::MatrixXd X_neighbour = X;
  X_neighbour(0, 0) += 1;  // row 0 moved by a unit vector: a neighbour under Definition 1
  const Eigen::VectorXd u = curator::separating_vector(X, 0);

  const core::RngFactory rf(seed, 0);
  std::vector<double> null(static_cast<std::size_t>(o.trials)),
      alt(static_cast<std::size_t>(o.trials));
  core::ThreadPool pool(o.threads);
  pool.parallel_for(2 * static_cast<std::size_t>(o.trials), [&](std::size_t k) {
    core::throw_if_cancelled();  // a trial is one release of the whole dataset
    const bool neighbour = k >= static_cast<std::size_t>(o.trials);
    const std::size_t i = neighbour ? k - o.trials : k;
    core::RngStream rng = rf.stream(neighbour ? "audit.neighbour" : "audit.dataset", i);
    const Eigen::MatrixXd Z = curator::release(neighbour ? X_neighbour : X, c.curator, rng).Z;
    (neighbour ? alt : null)[i] = (u.transpose() * Z).norm() / Z.norm();
  });

  const auto half = static_cast<std::ptrdiff_t>(o.trials / 2);
  const double top_null = *std::max_element(null.begin(), null.begin() + half);
  const double low_alt = *std::min_element(alt.begin(), alt.begin() + half);
  CuratorAuditResult res;
  res.threshold = top_null < low_alt && top_null > 0 ? std::sqrt(top_null * low_alt) : top_null;
  res.trials = o.trials - static_cast<int>(half);
  res.max_null = *std::max_element(null.begin() + half, null.end());
  res.min_neighbour = *std::min_element(alt.begin() + half, alt.end());
  for (auto it = null.begin() + half; it != null.end(); ++it)
    res.false_positives += *it > res.threshold;
  for (auto it = alt.begin() + half; it != alt.end(); ++it)
    res.false_negatives += *it <= res.threshold;
  const auto n = static_cast<long long>(res.trials);
  const double level = 1 - (1 - o.confidence) / 2;  // Bonferroni over the two rates
  res.fpr = static_cast<double>(res.false_positives) / static_cast<double>(n);
  res.fnr = static_cast<double>(res.false_negatives) / static_cast<double>(n);
  res.fpr_upper = clopper_pearson_upper(res.false_positives, n, level);
  res.fnr_upper = clopper_pearson_upper(res.false_negatives, n, level);
  res.epsilon_claimed = c.curator.epsilon;
  res.delta_claimed = c.curator.delta;
  res.epsilon_estimate = epsilon_lower_bound(res.fpr, res.fnr, res.delta_claimed);
  res.epsilon_lower = epsilon_lower_bound(res.fpr_upper, res.fnr_upper, res.delta_claimed);
  const curator::Transform t = curator::transform(X, c.curator);
  res.rows = static_cast<int>(X.rows());
  res.dim = static_cast<int>(X.cols());
  res.r = c.curator.r;
  res.sigma_min = t.sigma_min;
  res.omega = t.omega;
  res.lifted = t.lifted;
  res.lift = c.curator.lift == curator::Lift::paper ? "paper" : "authors";
  return res;
}

}  // namespace fbosim::audit

#pragma once
// Splits one labelled dataset among N agents (issue 29: the partitioner for users' own data),
// the three splits of the federated-learning literature, seeded and deterministic:
//   iid        a uniform random permutation cut into N parts whose sizes differ by at most 1;
//   dirichlet  for each label k, proportions p_k ~ Dir(alpha 1_N) over the agents and label k's
//              rows (shuffled) cut at the cumulative proportions (Hsu, Qi & Brown 2019, as
//              Flower's DirichletPartitioner and FedML do it): small alpha gives each agent few
//              labels, large alpha approaches iid; redrawn (at most 10 times, as Flower) until
//              every agent has `min_size` rows;
//   shards     rows sorted by label (stable), cut into N k shards of equal size (the remainder
//              to the first shards), the shards dealt at random, k to an agent (McMahan et al.,
//              AISTATS 2017, sec. 3: 200 shards of 300, 2 per client).
// The result is row indices: the user's objective(x, agent) trains or evaluates on its agent's
// rows (docs/OBJECTIVES.md, "Splitting your data among agents").
#include <cstdint>
#include <string>
#include <vector>

#include "schema/enum_names.hpp"

namespace fbosim::datasets::partition {

enum class Scheme { iid, dirichlet, shards };
inline constexpr schema::EnumNames<Scheme> kSchemeNames{
    {Scheme::iid, "iid"}, {Scheme::dirichlet, "dirichlet"}, {Scheme::shards, "shards"}};

struct PartitionOptions {
  Scheme scheme = Scheme::iid;
  int agents = 1;
  double alpha = 0.5;        ///< dirichlet: the concentration (> 0)
  int shards_per_agent = 2;  ///< shards: k
  int min_size = 1;          ///< dirichlet: the fewest rows an agent may get
  std::uint64_t seed = 0;
};

/// Agent n's row indices (ascending) for each n < agents; every index 0 .. labels.size() - 1
/// in exactly one agent. labels: one integer label per row (iid ignores them). Throws
/// std::invalid_argument naming the argument and its value for bad input (no rows, agents < 1
/// or above the rows, alpha <= 0 or not finite, k < 1 or N k above the rows, min_size < 0 or
/// N min_size above the rows) and std::runtime_error when no Dirichlet draw of 10 gives every
/// agent min_size rows.
std::vector<std::vector<std::int64_t>> partition(const std::vector<std::int64_t>& labels,
                                                 const PartitionOptions& options);

}  // namespace fbosim::datasets::partition

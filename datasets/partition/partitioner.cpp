#include "datasets/partition/partitioner.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>
#include <boost/random/gamma_distribution.hpp>

#include "core/rng.hpp"

namespace fbosim::datasets::partition {

namespace {

using Parts = std::vector<std::vector<std::int64_t>>;

std::vector<std::int64_t> iota(std::size_t n) {
  std::vector<std::int64_t> v(n);
  std::iota(v.begin(), v.end(), std::int64_t{0});
  return v;
}

// v cut into `parts` consecutive pieces, sizes differing by at most 1 (larger first).
Parts cut_even(const std::vector<std::int64_t>& v, int parts) {
  Parts out(static_cast<std::size_t>(parts));
  const std::size_t n = v.size(), p = static_cast<std::size_t>(parts);
  std::size_t at = 0;
  for (std::size_t k = 0; k < p; ++k) {
    const std::size_t size = n / p + (k < n % p ? 1 : 0);
    out[k].assign(v.begin() + static_cast<std::ptrdiff_t>(at),
                  v.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  return out;
}

Parts iid(std::size_t n, int agents, core::RngStream& rng) {
  std::vector<std::int64_t> order = iota(n);
  core::shuffle(order, rng);
  return cut_even(order, agents);
}

// The rows of each label, in row order, by label value.
std::map<std::int64_t, std::vector<std::int64_t>> by_label(
    const std::vector<std::int64_t>& labels) {
  std::map<std::int64_t, std::vector<std::int64_t>> out;
  for (std::size_t i = 0; i < labels.size(); ++i)
    out[labels[i]].push_back(static_cast<std::int64_t>(i));
  return out;
}

Parts dirichlet_once(const std::map<std::int64_t, std::vector<std::int64_t>>& classes,
                     const PartitionOptions& o, core::RngStream& rng) {
  const auto n = static_cast<std::size_t>(o.agents);
  Parts out(n);
  boost::random::gamma_distribution<double> gamma(o.alpha, 1.0);
  for (const auto& [label, rows_of_label] : classes) {
    std::vector<std::int64_t> rows = rows_of_label;
    core::shuffle(rows, rng);
    // p ~ Dir(alpha 1_N) as normalised Gamma(alpha, 1) draws. A tiny alpha can underflow
    // every draw to 0: the label then goes to one agent drawn uniformly (the limit alpha -> 0).
    std::vector<double> p(n);
    double total = 0;
    for (double& v : p) total += (v = gamma(rng.engine()));
    if (!(total > 0)) {
      std::fill(p.begin(), p.end(), 0.0);
      p[static_cast<std::size_t>(rng.uniform_int(n))] = 1;
      total = 1;
    }
    // Cut at floor(cumsum(p) m): agent a gets rows [cut_{a-1}, cut_a).
    const double m = static_cast<double>(rows.size());
    double cum = 0;
    std::size_t from = 0;
    for (std::size_t a = 0; a < n; ++a) {
      cum += p[a];
      const std::size_t to =
          a + 1 == n ? rows.size()
                     : std::min(rows.size(), static_cast<std::size_t>(std::floor(cum / total * m)));
      for (std::size_t i = from; i < std::max(from, to); ++i) out[a].push_back(rows[i]);
      from = std::max(from, to);
    }
  }
  return out;
}

Parts dirichlet(const std::vector<std::int64_t>& labels, const PartitionOptions& o,
                core::RngStream& rng) {
  const auto classes = by_label(labels);
  constexpr int kTries = 10;
  std::size_t fewest = 0;
  for (int t = 0; t < kTries; ++t) {
    Parts parts = dirichlet_once(classes, o, rng);
    fewest = parts[0].size();
    for (const auto& p : parts) fewest = std::min(fewest, p.size());
    if (fewest >= static_cast<std::size_t>(o.min_size)) return parts;
  }
  throw std::runtime_error(fmt::format(
      "partition: dirichlet with alpha = {} left an agent with {} rows (min_size = {}) in each "
      "of {} draws; use a larger alpha, fewer agents or a smaller min_size",
      o.alpha, fewest, o.min_size, kTries));
}

Parts shards(const std::vector<std::int64_t>& labels, const PartitionOptions& o,
             core::RngStream& rng) {
  std::vector<std::int64_t> sorted = iota(labels.size());
  std::stable_sort(sorted.begin(), sorted.end(), [&labels](std::int64_t a, std::int64_t b) {
    return labels[static_cast<std::size_t>(a)] < labels[static_cast<std::size_t>(b)];
  });
  const Parts pieces = cut_even(sorted, o.agents * o.shards_per_agent);
  std::vector<std::int64_t> deal = iota(pieces.size());
  core::shuffle(deal, rng);
  Parts out(static_cast<std::size_t>(o.agents));
  for (std::size_t s = 0; s < deal.size(); ++s) {
    const auto& piece = pieces[static_cast<std::size_t>(deal[s])];
    auto& agent = out[s / static_cast<std::size_t>(o.shards_per_agent)];
    agent.insert(agent.end(), piece.begin(), piece.end());
  }
  return out;
}

void check(const std::vector<std::int64_t>& labels, const PartitionOptions& o) {
  const auto bad = [](const std::string& what) {
    throw std::invalid_argument("partition: " + what);
  };
  const auto rows = static_cast<long long>(labels.size());
  if (rows == 0) bad("labels: no rows to split");
  if (o.agents < 1) bad(fmt::format("agents must be >= 1, got {}", o.agents));
  if (o.agents > rows)
    bad(fmt::format("agents must be at most the rows ({}), got {}", rows, o.agents));
  if (o.scheme == Scheme::dirichlet) {
    if (!(std::isfinite(o.alpha) && o.alpha > 0))
      bad(fmt::format("alpha must be a finite number > 0, got {}", o.alpha));
    if (o.min_size < 0) bad(fmt::format("min_size must be >= 0, got {}", o.min_size));
    if (static_cast<long long>(o.min_size) * o.agents > rows)
      bad(fmt::format("min_size x agents ({} x {}) must be at most the rows ({})", o.min_size,
                      o.agents, rows));
  }
  if (o.scheme == Scheme::shards) {
    if (o.shards_per_agent < 1)
      bad(fmt::format("shards per agent must be >= 1, got {}", o.shards_per_agent));
    if (static_cast<long long>(o.shards_per_agent) * o.agents > rows)
      bad(fmt::format("shards x agents ({} x {}) must be at most the rows ({})", o.shards_per_agent,
                      o.agents, rows));
  }
}

}  // namespace

std::vector<std::vector<std::int64_t>> partition(const std::vector<std::int64_t>& labels,
                                                 const PartitionOptions& options) {
  check(labels, options);
  // One stream per (seed, scheme): the split depends on nothing else.
  core::RngStream rng =
      core::RngFactory(options.seed, 0).stream("partition." + kSchemeNames.name(options.scheme));
  Parts parts;
  switch (options.scheme) {
    case Scheme::iid:
      parts = iid(labels.size(), options.agents, rng);
      break;
    case Scheme::dirichlet:
      parts = dirichlet(labels, options, rng);
      break;
    case Scheme::shards:
      parts = shards(labels, options, rng);
      break;
  }
  for (auto& p : parts) std::sort(p.begin(), p.end());
  return parts;
}

}  // namespace fbosim::datasets::partition

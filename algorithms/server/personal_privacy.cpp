#include "algorithms/server/personal_privacy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/rng.hpp"

namespace fbosim::server {

namespace {

void check_length(const std::vector<double>& list, std::size_t want, const char* key,
                  const char* per) {
  if (!list.empty() && list.size() != want)
    throw std::invalid_argument(
        fmt::format("{} must have one entry per {} ({}), got {}", key, per, want, list.size()));
}

// Tier of every agent: ranked by (key, n), tiers 1..i together floor(N (f_1 + ... + f_i) + 1/2).
std::vector<int> draw_tiers(const std::vector<double>& fractions, int agents, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(agents);
  const core::RngFactory streams(seed, 0);
  std::vector<std::pair<std::uint64_t, std::size_t>> keys(n);
  for (std::size_t a = 0; a < n; ++a) keys[a] = {streams.stream("personal.tier", a).engine()(), a};
  std::sort(keys.begin(), keys.end());
  std::vector<int> tier(n, 0);
  double cumulative = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i < fractions.size(); ++i) {
    cumulative += fractions[i];
    const auto to = std::min(
        n, static_cast<std::size_t>(std::floor(static_cast<double>(n) * cumulative + 0.5)));
    for (std::size_t k = from; k < to; ++k) tier[keys[k].second] = static_cast<int>(i) + 1;
    from = std::max(from, to);
  }
  return tier;
}

}  // namespace

double PersonalPrivacy::max_rate() const {
  return rates.empty() ? 0.0 : *std::max_element(rates.begin(), rates.end());
}

void check_personal(const PersonalKeys& k, int agents) {
  const auto n = static_cast<std::size_t>(agents);
  check_length(k.sampling_rates, n, "personal.sampling_rates", "agent (agents.count)");
  check_length(k.budgets, n, "personal.budgets", "agent (agents.count)");
  const bool lists = !k.sampling_rates.empty() || !k.budgets.empty();
  const bool tiers = !k.tier_fractions.empty() || !k.tier_rates.empty() || !k.tier_budgets.empty();
  if (lists && tiers)
    throw std::invalid_argument(
        "personal.tiers.* and the per-agent lists personal.sampling_rates / personal.budgets "
        "exclude each other: give each agent's values one way");
  if (!tiers) return;
  if (k.tier_fractions.empty())
    throw std::invalid_argument(
        "personal.tiers.fractions is missing: each tier needs the fraction of agents in it");
  if (k.tier_rates.empty() && k.tier_budgets.empty())
    throw std::invalid_argument(
        "personal.tiers.fractions needs personal.tiers.sampling_rates or personal.tiers.budgets "
        "(what the tiers differ in)");
  check_length(k.tier_rates, k.tier_fractions.size(), "personal.tiers.sampling_rates",
               "tier (personal.tiers.fractions)");
  check_length(k.tier_budgets, k.tier_fractions.size(), "personal.tiers.budgets",
               "tier (personal.tiers.fractions)");
  const double sum = std::accumulate(k.tier_fractions.begin(), k.tier_fractions.end(), 0.0);
  if (sum > 1 + 1e-12)
    throw std::invalid_argument(
        fmt::format("personal.tiers.fractions must sum to at most 1, got sum {:g}", sum));
}

PersonalPrivacy resolve_personal(const PersonalKeys& k, double q, int agents, std::uint64_t seed) {
  check_personal(k, agents);
  const auto n = static_cast<std::size_t>(agents);
  PersonalPrivacy p;
  p.rates.assign(n, q);
  p.tiers.assign(n, 0);
  if (!k.sampling_rates.empty()) p.rates = k.sampling_rates;
  if (!k.budgets.empty()) p.budgets = k.budgets;
  if (!k.tier_fractions.empty()) {
    p.tier_count = static_cast<int>(k.tier_fractions.size());
    p.tiers = draw_tiers(k.tier_fractions, agents, seed);
    if (!k.tier_budgets.empty()) p.budgets.assign(n, PersonalPrivacy::kNoBudget);
    for (std::size_t a = 0; a < n; ++a) {
      const int t = p.tiers[a];
      if (t == 0) continue;
      if (!k.tier_rates.empty()) p.rates[a] = k.tier_rates[static_cast<std::size_t>(t - 1)];
      if (!k.tier_budgets.empty()) p.budgets[a] = k.tier_budgets[static_cast<std::size_t>(t - 1)];
    }
  }
  p.q_ref = k.q_ref ? *k.q_ref
                    : std::accumulate(p.rates.begin(), p.rates.end(), 0.0) / static_cast<double>(n);
  return p;
}

}  // namespace fbosim::server

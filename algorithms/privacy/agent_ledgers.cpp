#include "algorithms/privacy/agent_ledgers.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::privacy {

AgentLedgers::AgentLedgers(int agents) : agents_(agents) {
  if (agents < 1)
    throw std::invalid_argument(fmt::format("agent ledgers: agents must be >= 1, got {}", agents));
  own_.resize(static_cast<std::size_t>(agents));
}

void AgentLedgers::check_count(long long count) const {
  if (count < 0)
    throw std::invalid_argument(fmt::format("agent ledgers: count must be >= 0, got {}", count));
}

int AgentLedgers::kind_index(const DpEvent& event) {
  // A handful of kinds per run: a linear search by value beats hashing an event tree.
  for (std::size_t k = 0; k < kinds_.size(); ++k)
    if (kinds_[k] == event) return static_cast<int>(k);
  kinds_.push_back(event);
  all_.push_back(0);
  return static_cast<int>(kinds_.size() - 1);
}

void AgentLedgers::charge(int agent, const DpEvent& event, long long count) {
  if (agent < 0 || agent >= agents_)
    throw std::out_of_range(fmt::format("agent ledgers: agent {} outside [0, {})", agent, agents_));
  check_count(count);
  if (count == 0 || event.as<NoOp>()) return;
  const int k = kind_index(event);
  auto& mine = own_[static_cast<std::size_t>(agent)];
  const auto at = std::lower_bound(mine.begin(), mine.end(), std::make_pair(k, LLONG_MIN));
  if (at != mine.end() && at->first == k)
    at->second += count;
  else
    mine.insert(at, {k, count});
}

void AgentLedgers::charge_all(const DpEvent& event, long long count) {
  check_count(count);
  if (count == 0 || event.as<NoOp>()) return;
  all_[static_cast<std::size_t>(kind_index(event))] += count;
}

std::vector<long long> AgentLedgers::counts(int agent) const {
  if (agent < 0 || agent >= agents_)
    throw std::out_of_range(fmt::format("agent ledgers: agent {} outside [0, {})", agent, agents_));
  std::vector<long long> c = all_;
  for (const auto& [k, n] : own_[static_cast<std::size_t>(agent)])
    c[static_cast<std::size_t>(k)] += n;
  return c;
}

namespace {

// Agents grouped by their count vectors (map order: deterministic).
std::map<std::vector<long long>, std::vector<int>> ledger_groups(const AgentLedgers& l) {
  std::map<std::vector<long long>, std::vector<int>> groups;
  for (int n = 0; n < l.agents(); ++n) groups[l.counts(n)].push_back(n);
  return groups;
}

}  // namespace

int AgentLedgers::distinct() const { return static_cast<int>(ledger_groups(*this).size()); }

double AgentLedgers::compose(const std::vector<DpEvent>& kinds, const std::vector<long long>& c,
                             const std::function<std::unique_ptr<Accountant>()>& make, double delta,
                             int agent) {
  std::unique_ptr<Accountant> acc = make();
  for (std::size_t k = 0; k < c.size(); ++k)
    if (c[k] > 0) acc->compose(DpEvent::self_composed(kinds[k], c[k]));
  const double e = acc->epsilon(delta).epsilon;
  if (!std::isfinite(e))
    throw std::runtime_error(fmt::format(
        "agent ledgers: the {} accountant gives no finite epsilon for agent {}'s ledger at "
        "delta {}",
        acc->name(), agent, delta));
  return e;
}

std::vector<double> AgentLedgers::epsilons(const std::function<std::unique_ptr<Accountant>()>& make,
                                           double delta) const {
  std::vector<double> eps(static_cast<std::size_t>(agents_), 0.0);
  for (const auto& [c, members] : ledger_groups(*this)) {
    const double e = compose(kinds_, c, make, delta, members.front());
    for (int n : members) eps[static_cast<std::size_t>(n)] = e;
  }
  return eps;
}

double AgentLedgers::epsilon_with(int agent, const std::vector<DpEvent>& extra,
                                  const std::function<std::unique_ptr<Accountant>()>& make,
                                  double delta) const {
  std::vector<long long> c = counts(agent);
  std::vector<DpEvent> kinds = kinds_;
  for (const DpEvent& e : extra) {
    if (e.as<NoOp>()) continue;  // as charge(): a NoOp is no kind
    const auto at = std::find(kinds.begin(), kinds.end(), e);
    if (at == kinds.end()) {
      kinds.push_back(e);
      c.push_back(1);
    } else {
      ++c[static_cast<std::size_t>(at - kinds.begin())];
    }
  }
  return compose(kinds, c, make, delta, agent);
}

EpsilonSpread spread(std::vector<double> epsilons) {
  if (epsilons.empty()) throw std::invalid_argument("spread: no epsilons");
  std::sort(epsilons.begin(), epsilons.end());
  // Nearest rank: the ceil(n num / den)-th smallest (1-based), in integers (0.9 n in doubles
  // can round past an integer and take the next rank).
  const auto rank = [&](std::size_t num, std::size_t den) {
    const std::size_t r = (epsilons.size() * num + den - 1) / den;
    return epsilons[std::max<std::size_t>(r, 1) - 1];
  };
  return {epsilons.back(), rank(1, 2), rank(9, 10)};
}

}  // namespace fbosim::privacy

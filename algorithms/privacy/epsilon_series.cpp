#include "algorithms/privacy/epsilon_series.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/accountant_registry.hpp"
#include "core/cancellation.hpp"

namespace fbosim::privacy {

std::vector<EpsilonResult> epsilon_series(const std::string& accountant, const DpEvent& event,
                                          const std::vector<int>& steps, double delta) {
  for (const int s : steps)
    if (s < 0) throw std::invalid_argument(fmt::format("step counts must be >= 0, got {}", s));
  std::vector<std::size_t> order(steps.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return steps[a] < steps[b]; });
  const auto acc = make_accountant(accountant);
  if (!acc->supports(event))
    throw std::invalid_argument(
        fmt::format("accountant '{}' cannot account for {}", accountant, to_string(event)));
  std::vector<EpsilonResult> out(steps.size(), EpsilonResult{0, 0});
  int composed = 0;
  EpsilonResult last{0, 0};
  for (const std::size_t k : order) {
    core::throw_if_cancelled();  // up to 10^6 counts, each an epsilon (pld: FFTs)
    if (steps[k] == 0) continue;
    if (steps[k] > composed) {
      acc->compose(event, steps[k] - composed);
      composed = steps[k];
      last = acc->epsilon(delta);
      if (!std::isfinite(last.epsilon))  // never a silent infinity
        throw std::domain_error(fmt::format(
            "the {} accountant gives no finite epsilon after {} steps", accountant, composed));
    }
    out[k] = last;
  }
  return out;
}

namespace {
long long parse_count(const std::string& word, const std::string& text) {
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(word, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != word.size() || v < 0 || v > 2147483647)
    throw std::invalid_argument(fmt::format(
        "steps must be a count, a list (10,20,40) or a range (1:1000 or 1:1000:10) of counts in "
        "[0, 2147483647], got '{}'",
        text));
  return v;
}
}  // namespace

std::vector<int> parse_steps(const std::string& text) {
  constexpr long long kMax = 1000000;
  std::vector<int> out;
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    if (item.find(':') == std::string::npos) {
      out.push_back(static_cast<int>(parse_count(item, text)));
    } else {
      std::vector<std::string> parts;
      std::stringstream in(item);
      for (std::string p; std::getline(in, p, ':');) parts.push_back(p);
      if (parts.size() < 2 || parts.size() > 3)
        throw std::invalid_argument(
            fmt::format("steps: a range is FIRST:LAST[:STRIDE], got '{}'", text));
      const long long first = parse_count(parts[0], text), last = parse_count(parts[1], text);
      const long long stride = parts.size() == 3 ? parse_count(parts[2], text) : 1;
      if (stride < 1 || last < first)
        throw std::invalid_argument(
            fmt::format("steps: a range needs FIRST <= LAST and a stride >= 1, got '{}'", text));
      if ((last - first) / stride + 1 + static_cast<long long>(out.size()) > kMax)
        throw std::invalid_argument(fmt::format("steps: '{}' has more than {} counts", text, kMax));
      for (long long t = first; t <= last; t += stride) out.push_back(static_cast<int>(t));
    }
    if (static_cast<long long>(out.size()) > kMax)
      throw std::invalid_argument(fmt::format("steps: '{}' has more than {} counts", text, kMax));
  }
  if (out.empty()) throw std::invalid_argument(fmt::format("steps: no count in '{}'", text));
  return out;
}

}  // namespace fbosim::privacy

#include "algorithms/protocol/resource_estimate.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "algorithms/protocol/experiment_facts.hpp"

namespace fbosim::protocol {

double ResourceEstimate::bytes() const {
  double b = 0;
  for (const ResourceTerm& t : memory) b += t.amount;
  return b;
}

double ResourceEstimate::flops() const {
  double f = 0;
  for (const ResourceTerm& t : work) f += t.amount;
  return f;
}

const ResourceTerm& ResourceEstimate::largest(const std::vector<ResourceTerm>& terms) {
  return *std::max_element(
      terms.begin(), terms.end(),
      [](const ResourceTerm& a, const ResourceTerm& b) { return a.amount < b.amount; });
}

std::string key_value(const char* key, double value) {
  return fmt::format("{} = {:g}", key, value);
}

void add_evaluation_work(const ExperimentFacts& s, double evaluations, const std::string& count,
                         ResourceEstimate& e) {
  if (s.evaluation_work <= 0) return;
  e.work.push_back(
      {evaluations * s.evaluation_work, count + " objective evaluations x " + s.evaluation_what});
}

}  // namespace fbosim::protocol

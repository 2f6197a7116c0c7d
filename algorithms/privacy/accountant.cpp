#include "algorithms/privacy/accountant.hpp"

#include <climits>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::privacy {

namespace {

// Mechanism events in the tree, with multiplicity (a double: exact far beyond INT_MAX).
double count_steps(const DpEvent& e) {
  if (e.as<NoOp>()) return 0;
  if (const auto* s = e.as<SelfComposed>())
    return static_cast<double>(s->count) * count_steps(*s->event);
  if (const auto* c = e.as<Composed>()) {
    double total = 0;
    for (const DpEvent& child : c->events) total += count_steps(child);
    return total;
  }
  return 1;
}

}  // namespace

const DpEvent* Accountant::first_unsupported(const DpEvent& e) const {
  if (e.as<NoOp>() || e.as<NonPrivate>()) return nullptr;
  if (const auto* s = e.as<SelfComposed>()) return first_unsupported(*s->event);
  if (const auto* c = e.as<Composed>()) {
    for (const DpEvent& child : c->events)
      if (const DpEvent* bad = first_unsupported(child)) return bad;
    return nullptr;
  }
  return supports_mechanism(e) ? nullptr : &e;
}

bool Accountant::supports(const DpEvent& event) const { return !first_unsupported(event); }

void Accountant::compose(const DpEvent& event, int count) {
  // Everything is checked before anything is composed: never a half-composed event.
  if (count < 0) throw std::invalid_argument(fmt::format("count must be >= 0, got {}", count));
  if (const DpEvent* bad = first_unsupported(event))
    throw std::invalid_argument(
        fmt::format("the {} accountant cannot account for {} (it supports {})", name(),
                    to_string(*bad), supported()));
  if (static_cast<double>(steps_) + count * count_steps(event) > INT_MAX)
    throw std::overflow_error(
        fmt::format("the {} accountant counts at most {} steps", name(), INT_MAX));
  if (count > 0) compose_tree(event, count);
}

void Accountant::compose_tree(const DpEvent& e, long long count) {
  if (count == 0 || e.as<NoOp>()) return;
  if (const auto* s = e.as<SelfComposed>()) {
    // Multiplicities stay below INT_MAX wherever a mechanism lies underneath (checked above).
    if (count_steps(*s->event) == 0) return;
    return compose_tree(*s->event, count * s->count);
  }
  if (const auto* c = e.as<Composed>()) {
    for (const DpEvent& child : c->events) compose_tree(child, count);
    return;
  }
  if (e.as<NonPrivate>())
    non_private_ = true;
  else
    compose_mechanism(e, count);
  steps_ += static_cast<int>(count);
}

void Accountant::require_private() const {
  if (non_private_)
    throw std::domain_error(fmt::format(
        "the {} accountant composed a NonPrivate event: there is no finite epsilon", name()));
}

EpsilonResult Accountant::epsilon(double delta) const {
  require_private();
  return private_epsilon(delta);
}

}  // namespace fbosim::privacy

#pragma once
// The accountant interface (house rule 4; after dp_accounting's PrivacyAccountant). The base
// walks the event tree: NoOp composes nothing, NonPrivate leaves no finite epsilon, SelfComposed
// and Composed recurse; every other node is a mechanism the accountant supports or not.
#include <memory>
#include <string>
#include <vector>

#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::privacy {

/// epsilon together with the RDP order that attains it (0 when not applicable).
struct EpsilonResult {
  double epsilon;
  double order;
};

class Accountant {
 public:
  virtual ~Accountant() = default;
  virtual std::string name() const = 0;
  /// Whether compose() accepts `event`: every mechanism node in the tree is supported.
  bool supports(const DpEvent& event) const;
  /// Composes `count` repetitions of `event`. Throws std::invalid_argument, composing nothing,
  /// if any sub-event is unsupported (the message names it) or count < 0, and
  /// std::overflow_error if steps() would pass INT_MAX.
  void compose(const DpEvent& event, int count = 1);
  /// Smallest epsilon such that everything composed so far is (epsilon, delta)-DP. Throws
  /// std::domain_error once a NonPrivate event was composed (there is no finite epsilon).
  EpsilonResult epsilon(double delta) const;
  /// Number of mechanism events (NonPrivate included, NoOp not) composed so far.
  int steps() const { return steps_; }
  /// Whether a NonPrivate event was composed.
  bool non_private() const { return non_private_; }
  /// Whether epsilon() is an upper bound on the true privacy loss. An approximation (gdp's
  /// central-limit theorem) can fall below it: it may be shown as a comparison, marked as
  /// approximate, but never as the `epsilon` of a run.
  virtual bool is_bound() const { return true; }

 protected:
  /// A mechanism node (not NoOp, NonPrivate, SelfComposed or Composed).
  virtual bool supports_mechanism(const DpEvent& event) const = 0;
  /// Composes `count` copies of a supported mechanism node.
  virtual void compose_mechanism(const DpEvent& event, long long count) = 0;
  /// epsilon() once NonPrivate is ruled out.
  virtual EpsilonResult private_epsilon(double delta) const = 0;
  /// What the accountant supports, for error messages, e.g. "Gaussian, PoissonSampled(Gaussian)".
  virtual std::string supported() const = 0;
  /// Throws std::domain_error if a NonPrivate event was composed.
  void require_private() const;

 private:
  const DpEvent* first_unsupported(const DpEvent& event) const;
  void compose_tree(const DpEvent& event, long long count);

  int steps_ = 0;
  bool non_private_ = false;
};

}  // namespace fbosim::privacy

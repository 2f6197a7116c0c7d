#pragma once
// What a mechanism released, as data (house rule 4, after google/dp_accounting's DpEvent): an
// algebra of mechanisms and how they were sampled and composed. Accountants compose these;
// nobody computes epsilon inline. Values are immutable and validated at construction, so an
// event that exists has valid parameters; children are shared, never mutated.
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "schema/enum_names.hpp"

namespace fbosim::privacy {

class DpEvent;

/// A shared, immutable child event compared by value.
class EventBox {
 public:
  explicit EventBox(DpEvent event);
  const DpEvent& operator*() const { return *ptr_; }
  const DpEvent* operator->() const { return ptr_.get(); }
  bool operator==(const EventBox& other) const;

 private:
  std::shared_ptr<const DpEvent> ptr_;
};

/// Releases nothing (composes nothing in every accountant).
struct NoOp {
  bool operator==(const NoOp&) const = default;
};
/// Releases data without any privacy guarantee (no finite epsilon).
struct NonPrivate {
  bool operator==(const NonPrivate&) const = default;
};
/// Gaussian mechanism of sensitivity 1 with noise N(0, z^2).
struct Gaussian {
  double noise_multiplier;
  bool operator==(const Gaussian&) const = default;
};
/// Laplace mechanism of sensitivity 1 with noise Laplace(0, b).
struct Laplace {
  double scale;
  bool operator==(const Laplace&) const = default;
};
/// A mechanism known only to be (epsilon, delta)-DP.
struct EpsilonDelta {
  double epsilon, delta;
  bool operator==(const EpsilonDelta&) const = default;
};
/// `event` run on a Poisson sample: each record is included with probability q.
struct PoissonSampled {
  double sampling_probability;
  EventBox event;
  bool operator==(const PoissonSampled&) const = default;
};
/// `event` run on a uniformly random subset of m of the N records, without replacement
/// (neighbours replace one record, as Wang, Balle, Kasiviswanathan 2019 assume).
struct FixedSampled {
  int sample_size, population;
  EventBox event;
  bool operator==(const FixedSampled&) const = default;
};
/// `event` composed with itself `count` times.
struct SelfComposed {
  EventBox event;
  long long count;
  bool operator==(const SelfComposed&) const = default;
};
/// `event` run K times on the same data, only the best run released, where K is random with
/// mean `mean`: a truncated negative binomial of shape eta = `shape` in [0, inf) (eta = 1:
/// geometric; eta = 0: logarithmic) or, for shape = +inf, Poisson(mean) (Papernot & Steinke
/// 2022, "Hyperparameter Tuning with Renyi Differential Privacy", ICLR, Thms. 2 and 6; the
/// RepeatAndSelectDpEvent of google/dp_accounting). K's distribution: RepetitionDistribution
/// (repetition.hpp).
struct RepeatAndSelect {
  EventBox event;
  double mean;   ///< E[K]: > 1 for the truncated negative binomial, >= 1 for Poisson
  double shape;  ///< eta >= 0, or +infinity for Poisson
  bool operator==(const RepeatAndSelect&) const = default;
};
/// Every event of `events`, in any order.
struct Composed {
  std::vector<DpEvent> events;
  bool operator==(const Composed& other) const;
};

class DpEvent {
 public:
  using Node = std::variant<NoOp, NonPrivate, Gaussian, Laplace, EpsilonDelta, PoissonSampled,
                            FixedSampled, SelfComposed, RepeatAndSelect, Composed>;
  /// NoOp.
  DpEvent();
  /// Throws std::invalid_argument naming the parameter if it is out of range.
  explicit DpEvent(Node node);

  static DpEvent noop() { return {}; }
  static DpEvent non_private() { return DpEvent(NonPrivate{}); }
  static DpEvent gaussian(double z) { return DpEvent(Gaussian{z}); }
  static DpEvent laplace(double b) { return DpEvent(Laplace{b}); }
  static DpEvent epsilon_delta(double eps, double delta) {
    return DpEvent(EpsilonDelta{eps, delta});
  }
  static DpEvent poisson_sampled(double q, DpEvent inner) {
    return DpEvent(PoissonSampled{q, EventBox(std::move(inner))});
  }
  static DpEvent fixed_sampled(int m, int n, DpEvent inner) {
    return DpEvent(FixedSampled{m, n, EventBox(std::move(inner))});
  }
  static DpEvent self_composed(DpEvent inner, long long k) {
    return DpEvent(SelfComposed{EventBox(std::move(inner)), k});
  }
  static DpEvent repeat_and_select(DpEvent inner, double mean, double shape) {
    return DpEvent(RepeatAndSelect{EventBox(std::move(inner)), mean, shape});
  }
  static DpEvent composed(std::vector<DpEvent> events) {
    return DpEvent(Composed{std::move(events)});
  }

  const Node& node() const { return node_; }
  template <class T>
  const T* as() const {
    return std::get_if<T>(&node_);
  }
  bool operator==(const DpEvent& other) const { return node_ == other.node_; }

 private:
  Node node_;
};

/// E.g. "PoissonSampled(q=0.25, Gaussian(z=1))" (shortest round-trip numbers).
std::string to_string(const DpEvent& event);

enum class Sampling { poisson, fixed };
/// server.sampling's names (and `fbosim privacy --sampling`).
inline constexpr schema::EnumNames<Sampling> kSamplingNames{{Sampling::poisson, "poisson"},
                                                            {Sampling::fixed, "fixed"}};

std::string to_string(Sampling s);
/// Parses "poisson" or "fixed"; throws std::invalid_argument naming the bad value otherwise.
Sampling parse_sampling(const std::string& s);

/// q and z of Gaussian(z) (q = 1) or PoissonSampled(q, Gaussian(z)).
struct PoissonGaussian {
  double q, z;
};
/// The Poisson-subsampled Gaussian that `event` is, if it is one.
std::optional<PoissonGaussian> as_poisson_gaussian(const DpEvent& event);
/// Throws std::invalid_argument unless 0 < q <= 1 and z > 0 is finite (NaN rejected): the
/// parameters every accountant's closed forms take.
void check_poisson_gaussian(double q, double z);

/// The one builder of the subsampled Gaussian release (the server's mechanism): Poisson:
/// PoissonSampled(q, Gaussian(z)); fixed: FixedSampled(floor(N q), N, Gaussian(z)). Throws
/// std::invalid_argument for an out-of-range q, z or N, or floor(N q) = 0 with fixed sampling.
DpEvent sampled_gaussian(Sampling sampling, double q, double z, int population);

}  // namespace fbosim::privacy

#include "algorithms/privacy/dp_event.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::privacy {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

// Negated comparisons throughout, so that NaN is rejected too.
void validate(const DpEvent::Node& node) {
  std::visit(
      Overloaded{
          [](const NoOp&) {},
          [](const NonPrivate&) {},
          [](const Gaussian& g) {
            require(g.noise_multiplier > 0 && std::isfinite(g.noise_multiplier),
                    fmt::format("Gaussian: noise_multiplier z must be > 0 and finite, got {}",
                                g.noise_multiplier));
          },
          [](const Laplace& l) {
            require(l.scale > 0 && std::isfinite(l.scale),
                    fmt::format("Laplace: scale b must be > 0 and finite, got {}", l.scale));
          },
          [](const EpsilonDelta& e) {
            require(
                e.epsilon >= 0 && std::isfinite(e.epsilon),
                fmt::format("EpsilonDelta: epsilon must be >= 0 and finite, got {}", e.epsilon));
            require(e.delta >= 0 && e.delta < 1,
                    fmt::format("EpsilonDelta: delta must be in [0, 1), got {}", e.delta));
          },
          [](const PoissonSampled& p) {
            require(p.sampling_probability > 0 && p.sampling_probability <= 1,
                    fmt::format("PoissonSampled: sampling_rate q must be in (0, 1], got {}",
                                p.sampling_probability));
          },
          [](const FixedSampled& f) {
            require(f.population >= 1,
                    fmt::format("FixedSampled: population N must be >= 1, got {}", f.population));
            require(f.sample_size >= 1 && f.sample_size <= f.population,
                    fmt::format("FixedSampled: sample size m must be in [1, N = {}], got {}",
                                f.population, f.sample_size));
          },
          [](const SelfComposed& s) {
            require(s.count >= 0, fmt::format("SelfComposed: count must be >= 0, got {}", s.count));
          },
          [](const RepeatAndSelect& r) {
            require(r.shape >= 0,
                    fmt::format("RepeatAndSelect: shape eta must be >= 0 (or +inf for Poisson), "
                                "got {}",
                                r.shape));
            if (std::isinf(r.shape))
              require(
                  r.mean >= 1 && std::isfinite(r.mean),
                  fmt::format("RepeatAndSelect: the Poisson mean must be >= 1 and finite, got {}",
                              r.mean));
            else
              require(r.mean > 1 && std::isfinite(r.mean),
                      fmt::format("RepeatAndSelect: the mean of a truncated negative binomial "
                                  "must be > 1 and finite, got {}",
                                  r.mean));
          },
          [](const Composed&) {},
      },
      node);
}

}  // namespace

EventBox::EventBox(DpEvent event) : ptr_(std::make_shared<const DpEvent>(std::move(event))) {}

bool EventBox::operator==(const EventBox& other) const { return *ptr_ == *other.ptr_; }

bool Composed::operator==(const Composed& other) const { return events == other.events; }

DpEvent::DpEvent() : node_(NoOp{}) {}

DpEvent::DpEvent(Node node) : node_(std::move(node)) { validate(node_); }

std::string to_string(const DpEvent& event) {
  return std::visit(
      Overloaded{
          [](const NoOp&) -> std::string { return "NoOp"; },
          [](const NonPrivate&) -> std::string { return "NonPrivate"; },
          [](const Gaussian& g) { return fmt::format("Gaussian(z={})", g.noise_multiplier); },
          [](const Laplace& l) { return fmt::format("Laplace(b={})", l.scale); },
          [](const EpsilonDelta& e) {
            return fmt::format("EpsilonDelta(eps={}, delta={})", e.epsilon, e.delta);
          },
          [](const PoissonSampled& p) {
            return fmt::format("PoissonSampled(q={}, {})", p.sampling_probability,
                               to_string(*p.event));
          },
          [](const FixedSampled& f) {
            return fmt::format("FixedSampled(m={}, N={}, {})", f.sample_size, f.population,
                               to_string(*f.event));
          },
          [](const SelfComposed& s) {
            return fmt::format("SelfComposed({}, k={})", to_string(*s.event), s.count);
          },
          [](const RepeatAndSelect& r) {
            return fmt::format("RepeatAndSelect({}, mean={}, shape={})", to_string(*r.event),
                               r.mean, r.shape);
          },
          [](const Composed& c) {
            std::string out = "Composed(";
            for (std::size_t i = 0; i < c.events.size(); ++i)
              out += (i ? ", " : "") + to_string(c.events[i]);
            return out + ")";
          },
      },
      event.node());
}

std::string to_string(Sampling s) { return kSamplingNames.name(s); }

Sampling parse_sampling(const std::string& s) { return kSamplingNames.parse(s, "sampling"); }

std::optional<PoissonGaussian> as_poisson_gaussian(const DpEvent& event) {
  if (const auto* g = event.as<Gaussian>()) return PoissonGaussian{1.0, g->noise_multiplier};
  if (const auto* p = event.as<PoissonSampled>())
    if (const auto* g = p->event->as<Gaussian>())
      return PoissonGaussian{p->sampling_probability, g->noise_multiplier};
  return std::nullopt;
}

void check_poisson_gaussian(double q, double z) {
  // Negated comparisons so that NaN is rejected too.
  require(q > 0 && q <= 1, fmt::format("sampling_rate q must be in (0, 1], got {}", q));
  require(z > 0 && std::isfinite(z), fmt::format("noise_multiplier z must be > 0, got {}", z));
}

DpEvent sampled_gaussian(Sampling sampling, double q, double z, int population) {
  DpEvent gaussian = DpEvent::gaussian(z);
  if (sampling == Sampling::poisson) return DpEvent::poisson_sampled(q, std::move(gaussian));
  require(q > 0 && q <= 1, fmt::format("sampling_rate q must be in (0, 1], got {}", q));
  require(population >= 1,
          fmt::format("fixed-size sampling needs the population N >= 1, got {}", population));
  // The same expression as DpMechanism::batch, so the accountant sees the batch drawn.
  const auto batch = static_cast<int>(std::floor(static_cast<double>(population) * q));
  require(batch >= 1, fmt::format("fixed-size sampling selects floor(N q) = 0 agents (N = {}, "
                                  "q = {})",
                                  population, q));
  return DpEvent::fixed_sampled(batch, population, std::move(gaussian));
}

}  // namespace fbosim::privacy

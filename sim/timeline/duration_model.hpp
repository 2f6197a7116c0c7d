#pragma once
// How long one evaluation takes (issue 41 sec. 1), in seconds of simulated time, before an
// agent's device tier scales it and the tick rule (tick.hpp) rounds it. One implementation per
// distribution; each validates its parameters, naming the key (timing.duration.*) and the
// value. A draw reads only the stream it is given, which the time line keys by (agent,
// evaluation) under "timing.duration": nothing else reads it, so durations never depend on data.
#include <memory>

#include "core/rng.hpp"

namespace fbosim::timeline {

class DurationModel {
 public:
  virtual ~DurationModel() = default;
  /// One duration in seconds (finite, >= 0).
  virtual double draw(core::RngStream& rng) const = 0;
  /// Its mean in seconds (closed form).
  virtual double mean() const = 0;
  /// Its variance in seconds^2 (closed form; +inf where infinite: Pareto with shape <= 2).
  virtual double variance() const = 0;
  /// Whether draw() reads its stream; false: every draw is mean() (the time line then seeds no
  /// stream per evaluation).
  virtual bool random() const { return true; }
};

}  // namespace fbosim::timeline

#include "algorithms/release/private_selection.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/noise_calibration.hpp"
#include "algorithms/release/mechanisms.hpp"

namespace fbosim::release {

privacy::DpEvent private_selection_event(const PrivateSelectionOptions& o) {
  if (!(o.base_epsilon > 0 && std::isfinite(o.base_epsilon)))
    throw std::invalid_argument(
        fmt::format("the base epsilon must be > 0 and finite, got {}", o.base_epsilon));
  // Laplace(b) of sensitivity 1 is (1/b)-DP: the score's noise sensitivity / epsilon_0 is b = 1 /
  // epsilon_0 in units of the sensitivity.
  return privacy::DpEvent::repeat_and_select(privacy::DpEvent::laplace(1 / o.base_epsilon), o.mean,
                                             o.shape);
}

double calibrate_base_epsilon(const std::string& accountant, double target_epsilon, double delta,
                              double mean, double shape) {
  const privacy::Calibration c = privacy::calibrate_noise(
      accountant,
      [&](double b) {
        return privacy::DpEvent::repeat_and_select(privacy::DpEvent::laplace(b), mean, shape);
      },
      1, delta, target_epsilon);
  return 1 / c.noise_multiplier;  // the scale was rounded up: epsilon_0 down
}

PrivateSelection private_selection(
    Eigen::Index candidates, const PrivateSelectionOptions& o,
    const std::function<double(Eigen::Index, core::RngStream&)>& score, core::RngStream& rng) {
  if (candidates < 1)
    throw std::invalid_argument(fmt::format("no candidates to select from ({})", candidates));
  if (!(o.sensitivity > 0 && std::isfinite(o.sensitivity)))
    throw std::invalid_argument(
        fmt::format("the score sensitivity must be > 0, got {}", o.sensitivity));
  (void)private_selection_event(o);  // validates
  const privacy::RepetitionDistribution k(o.mean, o.shape);
  PrivateSelection out;
  out.repetitions = k.sample(rng);
  const double scale = o.sensitivity / o.base_epsilon;
  for (long long j = 0; j < out.repetitions; ++j) {
    const auto i =
        static_cast<Eigen::Index>(rng.uniform_int(static_cast<std::uint64_t>(candidates)));
    const double s = score(i, rng);
    const double noisy = s + laplace_noise(scale, rng);
    if (out.best < 0 || noisy > out.noisy_score) {
      out.best = i;
      out.noisy_score = noisy;
      out.score = s;
    }
  }
  return out;
}

}  // namespace fbosim::release

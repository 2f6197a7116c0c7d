#include "sim/timeline/reproducible_draws.hpp"

#include <cmath>

#include "core/fast_exp.hpp"
#include "sim/timeline/portable_log.hpp"

namespace fbosim::timeline {

double open_uniform(core::RngStream& rng) { return 1.0 - rng.uniform(); }

double standard_exponential(core::RngStream& rng) { return -portable_log(open_uniform(rng)); }

double standard_normal(core::RngStream& rng) {
  for (;;) {
    const double u = 2.0 * rng.uniform() - 1.0;
    const double v = 2.0 * rng.uniform() - 1.0;
    const double s = u * u + v * v;
    // sqrt is correctly rounded in IEEE arithmetic: the same bits everywhere.
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * portable_log(s) / s);
  }
}

double portable_exp(double x) {
  double e = 0.0;
  core::fast_exp(&x, &e, 1);
  return e;
}

}  // namespace fbosim::timeline

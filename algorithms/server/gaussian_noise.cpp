#include "algorithms/server/gaussian_noise.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::server {

void add_gaussian_noise(WeightedRelease& out, const std::vector<double>& stds,
                        const privacy::DpEvent& event, core::RngStream& rng) {
  out.event.reset();
  std::vector<Eigen::VectorXd>& omegas = out.omegas;
  if (omegas.empty() || stds.size() != omegas.size())
    throw std::logic_error(
        fmt::format("Gaussian release: {} noise standard deviations for {} sub-region vectors",
                    stds.size(), omegas.size()));
  double largest = 0;
  for (std::size_t i = 0; i < stds.size(); ++i) {
    if (!(std::isfinite(stds[i]) && stds[i] > 0))
      throw std::logic_error(fmt::format(
          "Gaussian release: the noise std of sub-region {} must be finite and > 0, got {}; "
          "nothing is released",
          i, stds[i]));
    if (omegas[i].size() == 0)
      throw std::logic_error(
          fmt::format("Gaussian release: the vector of sub-region {} is empty", i));
    largest = std::max(largest, stds[i]);
  }
  for (std::size_t i = 0; i < omegas.size(); ++i)
    for (Eigen::Index k = 0; k < omegas[i].size(); ++k) omegas[i][k] += stds[i] * rng.normal();
  for (std::size_t i = 0; i < omegas.size(); ++i)
    if (!omegas[i].allFinite())
      throw std::logic_error(fmt::format(
          "Gaussian release: the noisy vector of sub-region {} is not finite; nothing is "
          "released",
          i));
  out.stats.noise_std = largest;
  out.event = event;
}

}  // namespace fbosim::server

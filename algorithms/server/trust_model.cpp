#include "algorithms/server/trust_model.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::server {

const char* async_trust_notion(const TrustOptions& options) {
  switch (options.trust) {
    case Trust::central:
      return nullptr;
    case Trust::local:
      return "server.trust local: against the server; each message sent charged once to its "
             "sender at its sending (its own noise), released, discarded or released again "
             "alike; a release charges nothing more";
    case Trust::distributed:
      break;
  }
  if (options.sampled_by == Sampler::server)
    return "server.trust distributed, sampled_by server: against the server; each agent of a "
           "release's pool that the server selects charged the Gaussian of the noise summed at "
           "q = 1";
  return "server.trust distributed, sampled_by agents: against the server; every agent of a "
         "release's pool charged at the noise summed, with its secret coin's subsampling (q = 1 "
         "under buffered)";
}

ShareCalibration::ShareCalibration(const TrustOptions& options, int m)
    : rho_(options.dropout_padding), colluders_(options.colluders), m_(m) {
  if (!(rho_ >= 0 && rho_ < 1))
    throw std::invalid_argument(
        fmt::format("server.dropout_padding must be in [0, 1), got {}", rho_));
  if (colluders_ < 0)
    throw std::invalid_argument(fmt::format("server.colluders must be >= 0, got {}", colluders_));
  if (m_ < 1) throw std::invalid_argument(fmt::format("a secure sum of {} agents", m_));
  denominator_ = (1 - rho_) * m_ - colluders_;
}

double ShareCalibration::factor() const {
  if (!feasible())
    throw std::logic_error(fmt::format(
        "noise shares of {} agents cannot carry sigma^2 with server.dropout_padding {} and "
        "server.colluders {}",
        m_, rho_, colluders_));
  return 1 / denominator_;
}

int ShareCalibration::min_survivors() const {
  if (rho_ == 0) return colluders_ + 1;
  return static_cast<int>(std::ceil((1 - rho_) * m_));
}

bool ShareCalibration::releases(int survivors) const {
  return feasible() && survivors >= min_survivors() && survivors > colluders_;
}

double ShareCalibration::effective_z(double z, int survivors) const {
  if (!releases(survivors))
    throw std::logic_error(
        fmt::format("a secure sum of {} of {} shares is not released", survivors, m_));
  // A quotient, not (m' - c) x factor(): m' = m without padding gives exactly z.
  return z * std::sqrt((survivors - colluders_) / denominator_);
}

}  // namespace fbosim::server

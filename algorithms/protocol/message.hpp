#pragma once
// What an agent sends after a round (design note "protocols"; FTS sec. 3, Dai, Low & Jaillet
// 2020): either one posterior sample on the shared random features (FTS, FTS-DE, DP-FTS-DE) or
// the whole RFF posterior (the RGPE / TAF adaptations of FTS sec. 3.2).
#include <optional>
#include <variant>

#include <Eigen/Core>

namespace fbosim::protocol {

/// omega_n ~ N(nu_n, lambda Sigma_n^-1) of FTS eq. (2): M floats.
struct RffSample {
  Eigen::VectorXd omega;  ///< M-vector
};

/// The RFF posterior of FTS eqs. (2)-(3) as RGPE and TAF need it (FTS sec. 3.2): nu_n and
/// Sigma_n^-1, M + M^2 floats, plus the incumbent (best observed y) for TAF.
struct GpSummary {
  Eigen::VectorXd nu;  ///< M-vector, Sigma_n^-1 Phi^T y
  Eigen::MatrixXd
      sigma_inverse;  ///< M x M, Sigma_n^-1 (the covariance of omega is lambda times it)
  std::optional<double> incumbent;  ///< max of the agent's observed y (TAF only)
};

using Message = std::variant<RffSample, GpSummary>;

/// Number of floats the message carries, as FTS counts communication (sec. 3.2, Fig. 2):
/// M for a sample, M + M^2 for a summary, one more with an incumbent.
long long message_floats(const Message& message);

}  // namespace fbosim::protocol

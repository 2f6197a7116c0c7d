#pragma once
// Who may see what (issue 42; docs/TRUST.md). DP-FTS-DE assumes "that the central server is
// trustworthy" (Dai, Low & Jaillet 2021, footnote 2): it sees every selected message and adds
// the noise itself (`central`). Without that trust:
//   distributed  secure aggregation: the server sees only the sum of the agents' messages, each
//                carrying the agent's weighted copies and its own share of the Gaussian noise.
//                The shares' variance is set from public counts (sigma^2 / m for the m agents
//                whose shares enter the sum; sigma = z w_max S / g as the central release's), so
//                the shares that are summed carry the central noise; neighbours differ by
//                zeroing one agent's vector, never by removing its share.
//   local        each agent clips its vector and adds Gaussian noise of std z_local x 2 S/sqrt(P)
//                itself (local DP hides any change of the vector within the clip ball: the
//                sensitivity is its diameter); the server applies DE's weights afterwards.
// The per-agent ledgers (privacy::AgentLedgers) charge each agent the event of what the
// adversary learns about it (protocol::AgentCharges).
#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::server {

/// server.trust.
enum class Trust { central, distributed, local };
inline constexpr schema::EnumNames<Trust> kTrustNames{
    {Trust::central, "central"}, {Trust::distributed, "distributed"}, {Trust::local, "local"}};

/// server.sampled_by: who draws the subsampling coins under secure aggregation.
enum class Sampler { server, agents };
inline constexpr schema::EnumNames<Sampler> kSamplerNames{{Sampler::server, "server"},
                                                          {Sampler::agents, "agents"}};

struct TrustOptions {
  Trust trust = Trust::central;          ///< server.trust
  Sampler sampled_by = Sampler::server;  ///< server.sampled_by (distributed)
  double dropout_padding = 0.0;          ///< rho in [0, 1): server.dropout_padding (distributed)
  int colluders = 0;                     ///< c >= 0: server.colluders (distributed)
  double local_z = 1.0;                  ///< z_local > 0: server.local_z (local)
  bool local_coin = false;               ///< server.local_coin (local): local_coin.hpp
};

/// The keys server.trust, server.sampled_by, server.dropout_padding, server.colluders,
/// server.local_z, server.local_coin.
const schema::Group<TrustOptions>& trust_keys();

/// What the trust model charges under an asynchronous schedule, against the server
/// (provenance.yaml's `trust_notion`, `fbosim privacy`; docs/TRUST.md "Under the asynchronous
/// schedules"); null under central (the schedule's epsilon_notion says it all).
const char* async_trust_notion(const TrustOptions& options);

/// The noise shares of a secure sum over `m` agents (public: the agents selected, or every
/// agent in the sum under agent-side sampling). Each share has variance factor() x sigma^2:
/// 1 / ((1 - rho) m - c), so that any (1 - rho) m survivors less c colluders who know their own
/// shares still carry sigma^2 (rho = c = 0: 1 / m, the paper's sigma^2 split evenly).
class ShareCalibration {
 public:
  /// Throws std::invalid_argument for rho outside [0, 1), c < 0 or m < 1.
  ShareCalibration(const TrustOptions& options, int m);

  /// Whether the shares can carry sigma^2 at all: (1 - rho) m > c.
  bool feasible() const { return denominator_ > 0; }
  /// 1 / ((1 - rho) m - c); throws std::logic_error when not feasible().
  double factor() const;
  /// The fewest survivors for which a release goes out: ceil((1 - rho) m) with padding (below
  /// it the release is aborted), c + 1 without (fewer leave no honest noise).
  int min_survivors() const;
  /// Whether a release with `survivors` shares summed goes out: feasible() and survivors >=
  /// min_survivors().
  bool releases(int survivors) const;
  /// The noise multiplier of the noise the adversary does not know: `survivors` - c shares of
  /// variance factor() sigma^2, relative to sigma: z sqrt((survivors - c) factor()). At least z
  /// with padding (survivors >= (1 - rho) m), z sqrt((m' - c) / (m - c)) without. Throws
  /// std::logic_error unless releases(survivors).
  double effective_z(double z, int survivors) const;

 private:
  double rho_;
  int colluders_, m_;
  double denominator_;
};

}  // namespace fbosim::server

#pragma once
// Local DP with a secret coin (server.local_coin, issue 42; docs/TRUST.md). Each agent draws a
// coin with probability q in secret and ALWAYS sends: its clipped vector plus its local noise
// when the coin says yes, the noise alone when it says no. The server cannot tell the two apart,
// so the coin amplifies the message's guarantee; local DP hides any change of the vector, so the
// neighbouring relation is "the agent's vector x replaced by x'" (both in the clip ball of
// radius r = S / sqrt(P)), and the message is the mixture
//   q N(x, s^2 I) + (1 - q) N(0, s^2 I)  against  q N(x', s^2 I) + (1 - q) N(0, s^2 I),
// s = z_local 2 r. The repo's accountants bound Poisson subsampling under add/remove only (the
// RDP of Mironov, Talwar & Zhang 2019; the PLD's remove and add pairs), which is not this
// relation. The bound used: for q = m/n this message IS the subsampled mechanism of Wang, Balle
// & Kasiviswanathan (AISTATS 2019) on n records, the agent's x and n - 1 public zero records,
// a sample of m without replacement, summed plus N(0, s^2 I): x is in the sample with
// probability m/n, and the base mechanism has replace-one sensitivity 2 r (every record lies in
// the ball), i.e. RDP eps(j) = j (2 r)^2 / (2 s^2) = j / (2 z_local^2). Their Theorem 9 bounds
// its RDP under replace-one at integer orders; RdpAccountant composes it as
// FixedSampled(m, n, Gaussian(2 z_local)) (its base is the sum of records of norm <= 1 with
// noise std z: sensitivity 2, eps(j) = j 4 / (2 z^2), here with z = 2 z_local). The theorem's
// bound grows with m/n, so m/n is the smallest fraction >= q with n <= kCoinDenominator.
#include "algorithms/privacy/dp_event.hpp"

namespace fbosim::server {

/// The largest denominator of the fraction m/n >= q that stands for q.
inline constexpr int kCoinDenominator = 1000000;

/// One message of an agent with a secret coin of probability q and local noise multiplier
/// z_local, under replace-one: FixedSampled(m, n, Gaussian(2 z_local)) with m/n the smallest
/// fraction >= q of denominator <= kCoinDenominator (exact when q is such a fraction). Throws
/// std::invalid_argument for q outside (0, 1] or z_local not finite and > 0.
privacy::DpEvent local_coin_event(double q, double z_local);

/// The fraction m/n of local_coin_event, m/n >= q exactly (in real arithmetic): the one of the
/// smallest n <= 1000 within 1e-12 of q, else the smallest m with n = kCoinDenominator.
struct CoinFraction {
  int m, n;
};
CoinFraction coin_fraction(double q);

}  // namespace fbosim::server

#pragma once
// The draws behind every duration and availability period: from a core::RngStream (Boost's
// mt19937_64 and uniform_01, integer work and one exact scaling), through portable_log and
// core::fast_exp (the same bits on every x86-64 CPU), with only IEEE basic operations and
// sqrt between them. Not RngStream::normal(): Boost's ziggurat calls glibc's exp in its wedge
// test and glibc's log for its tail values, whose bits depend on the CPU (portable_log.hpp), so
// a rare draw could too (none of 10^7 differed with and without glibc's FMA paths on this CPU,
// but nothing rules it out).
#include "core/rng.hpp"

namespace fbosim::timeline {

/// U(0, 1]: 1 - U[0, 1), so that its log is finite.
double open_uniform(core::RngStream& rng);
/// Exp(1): -log U(0, 1] (inversion; 0 when U = 1).
double standard_exponential(core::RngStream& rng);
/// N(0, 1) by Marsaglia's polar method (Marsaglia & Bray 1964): u, v ~ U(-1, 1) until 0 < s =
/// u^2 + v^2 < 1, then u sqrt(-2 log(s) / s). The pair's second normal is not kept, so that a
/// draw never depends on an earlier one.
double standard_normal(core::RngStream& rng);
/// exp(x) through core::fast_exp (within 2 ulp, the same bits on every x86-64 CPU).
double portable_exp(double x);

}  // namespace fbosim::timeline

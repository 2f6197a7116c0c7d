#pragma once
// The natural logarithm with the same bits on every x86-64 CPU, for the time line's draws
// (exponential, Pareto, the normal's polar method). glibc's log is not: like its exp
// (core/fast_exp.hpp) it takes an FMA build at run time on CPUs with FMA, and on this
// machine's CPU 550 of 10^7 arguments in (0, 1001] round differently against
// GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-AVX2 (log1p: 4,392; exp: 5,524). Neither is
// correctly rounded (glibc 2.36 claims about 0.52 ulp). This is fdlibm's e_log.c (Sun
// Microsystems, 1993): x = 2^k (1 + f) with sqrt(2)/2 < 1 + f < sqrt(2), log(1 + f) = 2s +
// s R(s^2) with s = f / (2 + f) and R a degree-7 minimax polynomial, k ln 2 in two parts.
// Error below 1 ulp; only IEEE additions, multiplications and one division (each correctly
// rounded), compiled without contraction into FMA (CMakeLists.txt), so its bits depend on
// nothing but x. log(0) = -inf, log(x < 0) = NaN, log(inf) = inf, log(NaN) = NaN.
namespace fbosim::timeline {

double portable_log(double x);

}  // namespace fbosim::timeline

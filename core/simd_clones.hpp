#pragma once
// FBOSIM_SIMD_CLONES before a function compiles it twice on x86-64, for AVX2 (twice the SIMD
// width) and the baseline, the one to run picked at load time. Neither clone enables FMA, so
// with no FMA contraction both do the same per-element operations: identical results. A build
// with -DFBOSIM_SIMD_CLONES= (CMAKE_CXX_FLAGS) has the baseline only, which is how the two are
// compared: the same outputs from both builds on an AVX2 machine.
#ifndef FBOSIM_SIMD_CLONES
#if defined(__x86_64__) && defined(__GNUC__)
#define FBOSIM_SIMD_CLONES [[gnu::target_clones("avx2", "default")]]
#else
#define FBOSIM_SIMD_CLONES
#endif
#endif

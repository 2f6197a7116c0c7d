#pragma once
// Eigen picks the block sizes of its matrix products from the CPU's cache sizes, read at run
// time, and the blocking sets the order in which a product's terms are summed: the same binary
// then rounds differently on a machine with another L1 (48 KiB against 32 KiB moved the RGPE
// and TAF landmine traces with M = 150 features in the 14th digit). Pinning the sizes makes a
// config and seed give the same bytes on every x86-64 machine, not only for any thread count.
#include <cstddef>

namespace fbosim::core {

/// The cache sizes Eigen's blocking is computed from (bytes). L1 is the one the golden traces
/// were written with (a Xeon's 48 KiB); L2 and L3 did not change them.
struct EigenBlocking {
  static constexpr std::ptrdiff_t l1 = 48 * 1024;
  static constexpr std::ptrdiff_t l2 = 2 * 1024 * 1024;
  static constexpr std::ptrdiff_t l3 = 32 * 1024 * 1024;
};

/// Sets Eigen's cache sizes to EigenBlocking's. Call it before any thread computes a product
/// (fbosim's main, the Python module and the tests' main do, first thing): Eigen keeps them in a
/// global.
void pin_eigen_blocking();

}  // namespace fbosim::core

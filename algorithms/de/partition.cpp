#include "algorithms/de/partition.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace fbosim::de {

namespace {

/// Prime factors of n, largest first.
std::vector<int> prime_factors_desc(int n) {
  std::vector<int> f;
  for (int p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      f.push_back(p);
      n /= p;
    }
  if (n > 1) f.push_back(n);
  std::sort(f.rbegin(), f.rend());
  return f;
}

}  // namespace

Partition::Partition(int dim, int regions) : regions_(regions) {
  if (dim < 1) throw std::invalid_argument(fmt::format("partition dim must be >= 1, got {}", dim));
  if (regions < 1)
    throw std::invalid_argument(fmt::format("partition regions must be >= 1, got {}", regions));
  splits_.assign(static_cast<std::size_t>(dim), 1);
  // Largest factors first, each to the least-split dimension (min_element keeps the lowest
  // on ties): P = 4 in 3-D halves dims 0 and 1, P = 6 in 2-D is 3 x 2.
  for (const int p : prime_factors_desc(regions))
    *std::min_element(splits_.begin(), splits_.end()) *= p;
}

int Partition::region_of(const Eigen::VectorXd& x) const {
  if (x.size() != dim())
    throw std::invalid_argument(
        fmt::format("region_of: x has {} coordinates, partition has {}", x.size(), dim()));
  int index = 0;
  for (int d = 0; d < dim(); ++d) {
    const int s = splits_[static_cast<std::size_t>(d)];
    int c = std::clamp(static_cast<int>(std::floor(x[d] * s)), 0, s - 1);
    // Agree exactly with box(): a cell is [c/s, (c+1)/s), the last one closed at 1.
    if (c > 0 && x[d] < static_cast<double>(c) / s) --c;
    if (c < s - 1 && x[d] >= static_cast<double>(c + 1) / s) ++c;
    index = index * s + c;
  }
  return index;
}

core::Box Partition::box(int i) const {
  if (i < 0 || i >= regions_)
    throw std::invalid_argument(
        fmt::format("region index must be in [0, {}), got {}", regions_, i));
  core::Box b{Eigen::VectorXd(dim()), Eigen::VectorXd(dim())};
  // Row-major, dimension 0 slowest: peel coordinates off from the last dimension.
  for (int d = dim() - 1; d >= 0; --d) {
    const int s = splits_[static_cast<std::size_t>(d)];
    const int c = i % s;
    i /= s;
    b.lo[d] = static_cast<double>(c) / s;
    b.hi[d] = static_cast<double>(c + 1) / s;
  }
  return b;
}

}  // namespace fbosim::de

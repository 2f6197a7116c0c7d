#include <catch2/catch.hpp>

#include <random>

#include <Eigen/Core>

#include "core/eigen_blocking.hpp"

using fbosim::core::EigenBlocking;
using fbosim::core::pin_eigen_blocking;

namespace {

Eigen::MatrixXd random_matrix(std::mt19937_64& gen, Eigen::Index rows, Eigen::Index cols) {
  std::normal_distribution<double> normal;
  Eigen::MatrixXd a(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) a(i, j) = normal(gen);
  return a;
}

// The product A B with Eigen's blocking computed from the given cache sizes (bytes).
Eigen::MatrixXd product_with_caches(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                                    std::ptrdiff_t l1, std::ptrdiff_t l2, std::ptrdiff_t l3) {
  Eigen::setCpuCacheSizes(l1, l2, l3);
  Eigen::MatrixXd c = a * b;
  return c;
}

}  // namespace

TEST_CASE("pin_eigen_blocking gives a product the same bits whatever caches the machine reports",
          "[core]") {
  std::mt19937_64 gen(3);
  // The depth 600 is longer than the blocks of both cache sets, so their sums run in other orders.
  const Eigen::MatrixXd a = random_matrix(gen, 150, 600), b = random_matrix(gen, 600, 150);
  const Eigen::MatrixXd small = product_with_caches(a, b, 16 * 1024, 256 * 1024, 8 << 20);
  const Eigen::MatrixXd large = product_with_caches(a, b, 64 * 1024, 2 << 20, 64 << 20);
  // The test can fail: unpinned, the two "machines" round differently.
  REQUIRE(small != large);
  REQUIRE((small - large).cwiseAbs().maxCoeff() < 1e-10);

  Eigen::setCpuCacheSizes(16 * 1024, 256 * 1024, 8 << 20);
  pin_eigen_blocking();
  const Eigen::MatrixXd first = a * b;
  Eigen::setCpuCacheSizes(64 * 1024, 2 << 20, 64 << 20);
  pin_eigen_blocking();
  const Eigen::MatrixXd second = a * b;
  CHECK(first == second);
  CHECK(Eigen::l1CacheSize() == EigenBlocking::l1);
  CHECK(Eigen::l2CacheSize() == EigenBlocking::l2);
  CHECK(Eigen::l3CacheSize() == EigenBlocking::l3);
}

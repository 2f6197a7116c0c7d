#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/de/partition.hpp"

using Catch::Matchers::Contains;
using fbosim::de::Partition;

namespace {
Eigen::VectorXd vec(std::initializer_list<double> v) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(v.size()));
  Eigen::Index k = 0;
  for (const double e : v) x[k++] = e;
  return x;
}
}  // namespace

TEST_CASE("P = 2 in 1-D gives [0, 0.5] and [0.5, 1]") {
  const Partition p(1, 2);
  CHECK(p.splits() == std::vector<int>{2});
  CHECK(p.box(0).lo[0] == 0.0);
  CHECK(p.box(0).hi[0] == 0.5);
  CHECK(p.box(1).lo[0] == 0.5);
  CHECK(p.box(1).hi[0] == 1.0);
  CHECK(p.region_of(vec({0.49})) == 0);
  CHECK(p.region_of(vec({0.5})) == 1);  // [0, 0.5), [0.5, 1] (spec section 4)
}

TEST_CASE("split shapes: 2-D P = 4 is 2 x 2, 3-D P = 4 halves dims 0 and 1, 2-D P = 6 is 3 x 2") {
  CHECK(Partition(2, 4).splits() == std::vector<int>{2, 2});
  CHECK(Partition(3, 4).splits() == std::vector<int>{2, 2, 1});
  CHECK(Partition(2, 6).splits() == std::vector<int>{3, 2});
  CHECK(Partition(1, 3).splits() == std::vector<int>{3});
  CHECK(Partition(2, 1).splits() == std::vector<int>{1, 1});
  // Row-major, dimension 0 slowest: region 1 of the 2-D 3 x 2 grid is x0 in [0,1/3], x1 in
  // [1/2, 1].
  const fbosim::core::Box b = Partition(2, 6).box(1);
  CHECK(b.lo[0] == 0.0);
  CHECK(b.hi[0] == Approx(1.0 / 3));
  CHECK(b.lo[1] == 0.5);
  CHECK(b.hi[1] == 1.0);
}

TEST_CASE("boxes have equal volume, contain their own centre, and x = 1 is in the last cell") {
  const int cases[][2] = {{1, 2}, {1, 3}, {2, 4}, {2, 6}, {3, 4}, {3, 12}, {4, 30}};
  for (const auto& c : cases) {
    const Partition p(c[0], c[1]);
    CAPTURE(c[0], c[1]);
    CHECK(p.count() == c[1]);
    CHECK(p.dim() == c[0]);
    for (int i = 0; i < p.count(); ++i) {
      const fbosim::core::Box b = p.box(i);
      CHECK((b.hi - b.lo).prod() == Approx(1.0 / c[1]).epsilon(1e-12));
      CHECK(p.region_of((b.lo + b.hi) / 2) == i);
      CHECK(p.region_of(b.lo) == i);  // lower faces belong to the cell
    }
    CHECK(p.region_of(Eigen::VectorXd::Ones(c[0])) == p.count() - 1);
    CHECK(p.region_of(Eigen::VectorXd::Zero(c[0])) == 0);
  }
}

TEST_CASE("agent n explores region n mod P") {
  const Partition p(2, 4);
  for (int n = 0; n < 20; ++n) CHECK(p.region_of_agent(n) == n % 4);
}

TEST_CASE("bad partitions and inputs throw naming the value") {
  CHECK_THROWS_WITH(Partition(0, 2), Contains("dim") && Contains("0"));
  CHECK_THROWS_WITH(Partition(2, -1), Contains("regions") && Contains("-1"));
  const Partition p(2, 4);
  CHECK_THROWS_WITH(p.box(4), Contains("4"));
  CHECK_THROWS_AS(p.region_of(vec({0.5})), std::invalid_argument);
}

TEST_CASE("P = 4 in 2-D: the sub-regions and assignment of the DP-FTS-DE authors' landmine code") {
  // create_partitions.py written out: for n in 0..1, for m in 0..1, the box
  // [n/2, (n+1)/2] x [m/2, (m+1)/2] is partition 2 n + m; agent s explores s % 4, and
  // bayesian_optimization_dp_fts_de.py draws its initial points uniformly in that box.
  const Partition p(2, 4);
  for (int n = 0; n < 2; ++n)
    for (int m = 0; m < 2; ++m) {
      const fbosim::core::Box b = p.box(2 * n + m);
      CHECK(b.lo[0] == n / 2.0);
      CHECK(b.hi[0] == (n + 1) / 2.0);
      CHECK(b.lo[1] == m / 2.0);
      CHECK(b.hi[1] == (m + 1) / 2.0);
    }
  for (int s = 0; s < 29; ++s) CHECK(p.region_of_agent(s) == s % 4);
}

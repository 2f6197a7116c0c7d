// The data partitioner (issue 29): every row to exactly one agent, the sizes of each scheme,
// iid balance, Dirichlet concentration against the law of Dir(alpha 1_N) (fixed seeds, stated
// tolerances), McMahan's shards' labels per agent, seeding, and bad input refused by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "datasets/partition/partitioner.hpp"

using namespace fbosim::datasets::partition;
using Catch::Matchers::Contains;

namespace {

using Parts = std::vector<std::vector<std::int64_t>>;

// K labels of m rows each, interleaved (row i has label i mod K).
std::vector<std::int64_t> labels_of(int classes, int per_class) {
  std::vector<std::int64_t> out;
  for (int i = 0; i < classes * per_class; ++i) out.push_back(i % classes);
  return out;
}

PartitionOptions options(Scheme s, int agents, std::uint64_t seed = 1) {
  PartitionOptions o;
  o.scheme = s;
  o.agents = agents;
  o.seed = seed;
  return o;
}

// Every index 0 .. n-1 in exactly one part, each part ascending.
void check_exact_cover(const Parts& parts, std::size_t n) {
  std::vector<int> seen(n, 0);
  for (const auto& p : parts) {
    CHECK(std::is_sorted(p.begin(), p.end()));
    for (const std::int64_t i : p) {
      REQUIRE(i >= 0);
      REQUIRE(static_cast<std::size_t>(i) < n);
      ++seen[static_cast<std::size_t>(i)];
    }
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
}

// counts[a][k]: agent a's rows of label k.
std::vector<std::map<std::int64_t, int>> label_counts(const Parts& parts,
                                                      const std::vector<std::int64_t>& labels) {
  std::vector<std::map<std::int64_t, int>> out(parts.size());
  for (std::size_t a = 0; a < parts.size(); ++a)
    for (const std::int64_t i : parts[a]) ++out[a][labels[static_cast<std::size_t>(i)]];
  return out;
}

// The mean over labels of the largest share of a label that one agent holds: 1/N for an even
// split, near 1 when each label sits with one agent.
double mean_largest_share(const Parts& parts, const std::vector<std::int64_t>& labels, int classes,
                          int per_class) {
  const auto counts = label_counts(parts, labels);
  double sum = 0;
  for (int k = 0; k < classes; ++k) {
    int best = 0;
    for (const auto& c : counts) best = std::max(best, c.count(k) ? c.at(k) : 0);
    sum += static_cast<double>(best) / per_class;
  }
  return sum / classes;
}

}  // namespace

TEST_CASE("partition: every row to exactly one agent, in every scheme") {
  const std::vector<std::int64_t> labels = labels_of(7, 31);  // 217 rows, uneven cuts
  for (const auto& e : kSchemeNames)
    for (const int agents : {1, 3, 10, 50}) {
      INFO(e.name << ", " << agents << " agents");
      const Parts parts = partition(labels, options(e.value, agents));
      REQUIRE(parts.size() == static_cast<std::size_t>(agents));
      check_exact_cover(parts, labels.size());
    }
}

TEST_CASE("partition: iid sizes differ by at most one and each agent sees every label evenly") {
  // 10 labels x 1000 rows, 10 agents of 1000: agent a's count of label k is hypergeometric,
  // mean 100, sd sqrt(100 (0.9) (9000/9999)) = 9.0; all 100 counts within 100 +- 45 (5 sd).
  const std::vector<std::int64_t> labels = labels_of(10, 1000);
  const Parts parts = partition(labels, options(Scheme::iid, 10, 3));
  for (const auto& p : parts) CHECK(p.size() == 1000);
  for (const auto& c : label_counts(parts, labels))
    for (int k = 0; k < 10; ++k) CHECK(std::abs(c.at(k) - 100) <= 45);
  // 217 rows among 10 agents: 7 of 22 and 3 of 21.
  const Parts uneven = partition(labels_of(7, 31), options(Scheme::iid, 10));
  std::multiset<std::size_t> sizes;
  for (const auto& p : uneven) sizes.insert(p.size());
  CHECK(sizes.count(22) == 7);
  CHECK(sizes.count(21) == 3);
}

TEST_CASE("partition: dirichlet, near iid for a large alpha and concentrated for a small one") {
  const std::vector<std::int64_t> labels = labels_of(10, 1000);
  PartitionOptions o = options(Scheme::dirichlet, 10, 5);
  // alpha = 1000: p_k ~ Dir(1000 1_10), each share sd sqrt(0.1 x 0.9 / 10001) = 0.003, so each
  // count 100 +- 3 (plus 1 from the cut); all 100 within 100 +- 20, the largest share of a
  // label ~0.105 (python3 simulation of the same construction: 0.104 .. 0.106 in 20 draws).
  o.alpha = 1000;
  const Parts wide = partition(labels, o);
  check_exact_cover(wide, labels.size());
  for (const auto& c : label_counts(wide, labels))
    for (int k = 0; k < 10; ++k) CHECK(std::abs(c.at(k) - 100) <= 20);
  CHECK(mean_largest_share(wide, labels, 10, 1000) < 0.13);
  // alpha = 0.05: most of a label goes to one agent; the mean largest share is 0.63 .. 0.86 in
  // 20 simulated draws (python3, random.gammavariate): above 0.5 here.
  o.alpha = 0.05;
  o.min_size = 0;
  const Parts narrow = partition(labels, o);
  check_exact_cover(narrow, labels.size());
  CHECK(mean_largest_share(narrow, labels, 10, 1000) > 0.5);
  // alpha = 0.5 lies between.
  o.alpha = 0.5;
  const double mid = mean_largest_share(partition(labels, o), labels, 10, 1000);
  CHECK(mid > 0.13);
  CHECK(mid < mean_largest_share(narrow, labels, 10, 1000));
}

TEST_CASE("partition: dirichlet redraws until every agent has min_size rows, else says so") {
  const std::vector<std::int64_t> labels = labels_of(10, 100);
  // alpha = 0.5, 10 agents, 1000 rows: an agent's expected share is 100 rows, but one draw
  // in a few leaves someone below 60; with min_size = 60 every agent has at least 60.
  PartitionOptions o = options(Scheme::dirichlet, 10, 2);
  o.alpha = 0.5;
  o.min_size = 60;
  const Parts parts = partition(labels, o);
  check_exact_cover(parts, labels.size());
  for (const auto& p : parts) CHECK(p.size() >= 60);
  // The first draw of this seed does leave an agent below 60 (so a redraw happened).
  o.min_size = 0;
  std::size_t fewest = labels.size();
  for (const auto& p : partition(labels, o)) fewest = std::min(fewest, p.size());
  CHECK(fewest < 60);
  // Two labels among 50 agents with alpha = 0.001: nearly every agent gets nothing.
  o = options(Scheme::dirichlet, 50);
  o.alpha = 0.001;
  CHECK_THROWS_WITH(partition(labels_of(2, 100), o), Contains("alpha = 0.001") &&
                                                         Contains("min_size = 1") &&
                                                         Contains("larger alpha"));
}

TEST_CASE("partition: shards give each agent k shards of equal size, at most k labels") {
  // 10 labels x 100 rows, 10 agents x 2 shards of 50: every shard holds one label, so each
  // agent gets 100 rows of at most 2 labels (McMahan et al.'s pathological non-iid split).
  const std::vector<std::int64_t> labels = labels_of(10, 100);
  PartitionOptions o = options(Scheme::shards, 10, 4);
  const Parts parts = partition(labels, o);
  check_exact_cover(parts, labels.size());
  for (const auto& c : label_counts(parts, labels)) {
    CHECK(c.size() <= 2);
    int rows = 0;
    for (const auto& [label, n] : c) {
      CHECK(n % 50 == 0);  // whole shards
      rows += n;
    }
    CHECK(rows == 100);
  }
  // With uneven labels a shard can straddle two: at most 2k labels, k shards each.
  const std::vector<std::int64_t> uneven = labels_of(7, 31);
  o.agents = 6;
  o.shards_per_agent = 3;
  const Parts p2 = partition(uneven, o);
  check_exact_cover(p2, uneven.size());
  for (const auto& c : label_counts(p2, uneven)) CHECK(c.size() <= 6);
  for (const auto& p : p2) CHECK((p.size() == 36 || p.size() == 37));  // 217 / 18 = 12.06
}

TEST_CASE("partition: seeded and deterministic") {
  const std::vector<std::int64_t> labels = labels_of(5, 40);
  for (const auto& e : kSchemeNames) {
    INFO(e.name);
    PartitionOptions o = options(e.value, 4, 9);
    const Parts a = partition(labels, o), b = partition(labels, o);
    CHECK(a == b);
    o.seed = 10;
    CHECK(partition(labels, o) != a);
  }
  // iid ignores the labels: the same split for any labels of the same length.
  CHECK(partition(labels, options(Scheme::iid, 4, 9)) ==
        partition(std::vector<std::int64_t>(200, 0), options(Scheme::iid, 4, 9)));
}

TEST_CASE("partition: bad input is refused, naming the argument and the value") {
  const std::vector<std::int64_t> labels = labels_of(2, 5);
  CHECK_THROWS_WITH(partition({}, options(Scheme::iid, 2)), Contains("no rows"));
  CHECK_THROWS_WITH(partition(labels, options(Scheme::iid, 0)),
                    Contains("agents must be >= 1, got 0"));
  CHECK_THROWS_WITH(partition(labels, options(Scheme::iid, 11)),
                    Contains("agents must be at most the rows (10), got 11"));
  for (const double alpha : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    PartitionOptions o = options(Scheme::dirichlet, 2);
    o.alpha = alpha;
    CHECK_THROWS_WITH(partition(labels, o), Contains("alpha must be a finite number > 0"));
  }
  PartitionOptions o = options(Scheme::dirichlet, 4);
  o.min_size = 3;
  CHECK_THROWS_WITH(partition(labels, o), Contains("min_size x agents (3 x 4)"));
  o.min_size = -1;
  CHECK_THROWS_WITH(partition(labels, o), Contains("min_size must be >= 0, got -1"));
  o = options(Scheme::shards, 3);
  o.shards_per_agent = 0;
  CHECK_THROWS_WITH(partition(labels, o), Contains("shards per agent must be >= 1, got 0"));
  o.shards_per_agent = 4;
  CHECK_THROWS_WITH(partition(labels, o), Contains("shards x agents (4 x 3)"));
}

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "algorithms/de/weight_schedule.hpp"

using namespace fbosim::de;
using Catch::Matchers::Contains;

namespace {
WeightSchedule make(WeightScheme scheme, double start, int hold, int decay, bool adaptive = true) {
  WeightSchedule::Options o;
  o.scheme = scheme;
  o.start = start;
  o.hold = hold;
  o.decay = decay;
  o.adaptive = adaptive;
  return WeightSchedule(o);
}
// Agents 0..N-1 explore region n mod P, as in the paper's code.
std::vector<int> round_robin(int N, int P) {
  std::vector<int> r(static_cast<std::size_t>(N));
  for (int n = 0; n < N; ++n) r[static_cast<std::size_t>(n)] = n % P;
  return r;
}
}  // namespace

TEST_CASE("synthetic schedule: a_t = 16 for t <= 6, then 12.25, 8.5, 4.75, 1 (App. B)") {
  const WeightSchedule s = make(WeightScheme::softmax, 16, 5, 5);
  for (int t = 0; t <= 6; ++t) CHECK(s.a(t) == Approx(16).margin(1e-12));
  CHECK(s.a(7) == Approx(12.25).margin(1e-12));
  CHECK(s.a(8) == Approx(8.5).margin(1e-12));
  CHECK(s.a(9) == Approx(4.75).margin(1e-12));
  CHECK(s.a(10) == Approx(1).margin(1e-12));
  for (int t = 11; t <= 60; ++t) CHECK(s.a(t) == Approx(1).margin(1e-12));
}

TEST_CASE("real-world schedule: 16 up to t = 11, linear to 1 at t = 40, then 1") {
  const WeightSchedule s = make(WeightScheme::softmax, 16, 10, 30);
  for (int t = 0; t <= 11; ++t) CHECK(s.a(t) == Approx(16).margin(1e-12));
  for (int t = 11; t <= 40; ++t) CHECK(s.a(t) == Approx(16 - 15.0 * (t - 11) / 29).margin(1e-12));
  CHECK(s.a(40) == Approx(1).margin(1e-12));
  CHECK(s.a(41) == Approx(1).margin(1e-12));
}

TEST_CASE("non-adaptive weights keep a_t = start (Fig. 12)") {
  const WeightSchedule s = make(WeightScheme::softmax, 16, 5, 5, false);
  for (int t = 0; t <= 60; ++t) CHECK(s.a(t) == 16);
}

TEST_CASE("softmax weights equal the paper's exp((a I + 1) / T_t) form") {
  const int N = 7, P = 3;
  const WeightSchedule s = make(WeightScheme::softmax, 16, 5, 5);
  const double a = 15;  // a = a_start - 1 (App. B)
  for (const int t : {1, 6, 7, 8, 9}) {
    const Eigen::MatrixXd w = s.weights(t, round_robin(N, P), P);
    REQUIRE(w.rows() == P);
    REQUIRE(w.cols() == N);
    const double temperature = a / (s.a(t) - 1);
    for (int i = 0; i < P; ++i) {
      CHECK(w.row(i).sum() == Approx(1).margin(1e-12));
      double z = 0;
      for (int n = 0; n < N; ++n) z += std::exp((a * (n % P == i) + 1) / temperature);
      for (int n = 0; n < N; ++n) {
        const double paper = std::exp((a * (n % P == i) + 1) / temperature) / z;
        CHECK(w(i, n) == Approx(paper).epsilon(1e-12));
      }
      // Assigned agent i vs unassigned agent (i + 1) mod P.
      CHECK(w(i, i) / w(i, (i + 1) % P) == Approx(std::exp(s.a(t) - 1)).epsilon(1e-12));
    }
  }
  // a_t = 1 (T_t = infinity): uniform.
  CHECK((s.weights(10, round_robin(N, P), P).array() - 1.0 / N).abs().maxCoeff() < 1e-15);
}

TEST_CASE("linear and quadratic weights have ratios a_t and a_t^2 (Fig. 9)") {
  const int N = 10, P = 4;
  const WeightSchedule lin = make(WeightScheme::linear, 1000, 10, 30);
  const WeightSchedule quad = make(WeightScheme::quadratic, 40, 10, 30);
  for (const int t : {0, 15, 30, 40}) {
    const Eigen::MatrixXd wl = lin.weights(t, round_robin(N, P), P);
    const Eigen::MatrixXd wq = quad.weights(t, round_robin(N, P), P);
    for (int i = 0; i < P; ++i) {
      CHECK(wl.row(i).sum() == Approx(1).margin(1e-12));
      CHECK(wq.row(i).sum() == Approx(1).margin(1e-12));
      CHECK(wl(i, i) / wl(i, (i + 1) % P) == Approx(lin.a(t)).epsilon(1e-12));
      CHECK(wq(i, i) / wq(i, (i + 1) % P) == Approx(quad.a(t) * quad.a(t)).epsilon(1e-12));
      // Independent normalisation: 3 or 2 assigned agents out of 10 (agents i, i+4, i+8).
      const int assigned = (N - 1 - i) / P + 1;
      const double h = lin.a(t);
      CHECK(wl(i, i) == Approx(h / (assigned * h + (N - assigned))).epsilon(1e-12));
    }
  }
}

TEST_CASE("equal scheme gives 1/N everywhere") {
  const WeightSchedule s = make(WeightScheme::equal, 16, 5, 5);
  const Eigen::MatrixXd w = s.weights(0, round_robin(5, 2), 2);
  CHECK((w.array() - 0.2).abs().maxCoeff() < 1e-15);
}

TEST_CASE("weight scheme names round-trip, bad names and regions are rejected") {
  for (const WeightScheme s :
       {WeightScheme::softmax, WeightScheme::linear, WeightScheme::quadratic, WeightScheme::equal})
    CHECK(parse_weight_scheme(to_string(s)) == s);
  CHECK_THROWS_WITH(parse_weight_scheme("cubic"), Contains("cubic"));
  const WeightSchedule s;
  CHECK_THROWS_WITH(s.weights(0, {0, 3}, 2), Contains("3"));
  CHECK_THROWS_WITH(s.a(-1), Contains("-1"));
}

TEST_CASE("softmax weights stay finite and exact for a_t far beyond exp's range (issue #10)") {
  // exp(a_t - 1) overflows from a_t = 711 on (and the row sums from 710): the weights became
  // 0 or NaN. Independent computation in long double (range to ~1e4932): an assigned agent
  // gets 1 / (k + (N - k) e^-(a_t - 1)), another e^-(a_t - 1) / (k + (N - k) e^-(a_t - 1)).
  const int N = 7, P = 3;
  for (const double start : {700.0, 710.0, 711.0, 1000.0, 5000.0, 1e6, 1e300}) {
    INFO("start " << start);
    const WeightSchedule s = make(WeightScheme::softmax, start, 5, 5);
    for (const int t : {0, 6, 7, 8, 9, 10, 11}) {
      const Eigen::MatrixXd w = s.weights(t, round_robin(N, P), P);
      REQUIRE(w.allFinite());
      const long double e = std::exp(-static_cast<long double>(s.a(t) - 1));
      for (int i = 0; i < P; ++i) {
        CHECK(w.row(i).sum() == Approx(1).margin(1e-12));
        const int k = (N - 1 - i) / P + 1;  // agents i, i + 3, i + 6 < 7
        const long double z = k + (N - k) * e;
        for (int n = 0; n < N; ++n) {
          const long double paper = (n % P == i ? 1.0L : e) / z;
          CHECK(w(i, n) == Approx(static_cast<double>(paper)).epsilon(1e-12).margin(1e-300));
        }
      }
    }
  }
}

TEST_CASE("linear and quadratic weights stay finite for huge a_t") {
  const int N = 5, P = 2;
  for (const WeightScheme scheme : {WeightScheme::linear, WeightScheme::quadratic}) {
    const WeightSchedule s = make(scheme, 1e300, 10, 30);
    const Eigen::MatrixXd w = s.weights(0, round_robin(N, P), P);
    REQUIRE(w.allFinite());
    // Region 0: agents 0, 2, 4 with h = 1e300 (or 1e600 in log space), agents 1, 3 with h = 1.
    CHECK(w(0, 0) == Approx(1.0 / 3).epsilon(1e-12));
    CHECK(w(0, 1) == Approx(scheme == WeightScheme::linear ? 1e-300 / 3 : 0.0).margin(1e-310));
    CHECK(w.row(1).sum() == Approx(1).epsilon(1e-12));
  }
}

TEST_CASE("a region nobody explores gets uniform weights") {
  // N = 2 < P = 3: region 2 has no assigned agent; its logits are all 0.
  const WeightSchedule s = make(WeightScheme::softmax, 1e4, 5, 5);
  const Eigen::MatrixXd w = s.weights(0, round_robin(2, 3), 3);
  CHECK(w(2, 0) == 0.5);
  CHECK(w(2, 1) == 0.5);
  CHECK(w(0, 0) == 1.0);
  CHECK(w(0, 1) == 0.0);
}

TEST_CASE("schedules that make the weights meaningless are rejected, naming key and value") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto with = [](auto edit) {
    WeightSchedule::Options o;
    edit(o);
    return o;
  };
  CHECK_THROWS_WITH(WeightSchedule(with([&](auto& o) { o.start = inf; })),
                    Contains("exploration.weights.start") && Contains("inf"));
  CHECK_THROWS_WITH(WeightSchedule(with([&](auto& o) { o.start = nan; })),
                    Contains("exploration.weights.start") && Contains("nan"));
  CHECK_THROWS_WITH(WeightSchedule(with([](auto& o) { o.start = 0.5; })),
                    Contains("exploration.weights.start") && Contains("0.5"));
  CHECK_THROWS_WITH(WeightSchedule(with([](auto& o) { o.end = 17; })),
                    Contains("exploration.weights.end") && Contains("17"));
  CHECK_THROWS_WITH(WeightSchedule(with([](auto& o) { o.end = 0; })),
                    Contains("exploration.weights.end"));
  CHECK_THROWS_WITH(WeightSchedule(with([&](auto& o) { o.end = nan; })),
                    Contains("exploration.weights.end") && Contains("nan"));
  CHECK_THROWS_WITH(WeightSchedule(with([](auto& o) { o.hold = -1; })),
                    Contains("exploration.weights.hold") && Contains("-1"));
  CHECK_THROWS_WITH(WeightSchedule(with([](auto& o) { o.decay = -2; })),
                    Contains("exploration.weights.decay") && Contains("-2"));
  CHECK_NOTHROW(WeightSchedule(with([](auto& o) { o.start = o.end = 1; })));
}

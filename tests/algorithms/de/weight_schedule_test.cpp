#include <catch2/catch.hpp>

#include <cmath>
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

TEST_CASE("weight scheme names round-trip; bad names and regions are rejected") {
  for (const WeightScheme s :
       {WeightScheme::softmax, WeightScheme::linear, WeightScheme::quadratic, WeightScheme::equal})
    CHECK(parse_weight_scheme(to_string(s)) == s);
  CHECK_THROWS_WITH(parse_weight_scheme("cubic"), Contains("cubic"));
  const WeightSchedule s;
  CHECK_THROWS_WITH(s.weights(0, {0, 3}, 2), Contains("3"));
  CHECK_THROWS_WITH(s.a(-1), Contains("-1"));
}

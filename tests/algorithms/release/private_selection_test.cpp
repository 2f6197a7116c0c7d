// Papernot & Steinke's private selection: the number of runs follows K's distribution, the
// best noisy run is released, the event and the calibration agree with the accountant.
#include <catch2/catch.hpp>

#include <cmath>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/release/private_selection.hpp"

using namespace fbosim;

TEST_CASE("private selection: K runs, the best noisy score, data-independent candidates") {
  release::PrivateSelectionOptions o;
  o.mean = 5;
  o.shape = 1;
  o.sensitivity = 0.01;
  o.base_epsilon = 1e4;  // noise scale 1e-6: the best sampled score wins
  const Eigen::VectorXd scores = Eigen::VectorXd::LinSpaced(50, 0, 1);
  core::RngStream rng(3);
  double k_sum = 0;
  const int n = 4000;
  for (int t = 0; t < n; ++t) {
    std::vector<Eigen::Index> seen;
    const auto sel = release::private_selection(
        50, o,
        [&](Eigen::Index i, core::RngStream&) {
          seen.push_back(i);
          return scores[i];
        },
        rng);
    REQUIRE(static_cast<long long>(seen.size()) == sel.repetitions);
    REQUIRE(sel.repetitions >= 1);
    Eigen::Index top = seen[0];
    for (Eigen::Index i : seen) top = std::max(top, i);  // scores increase with the index
    CHECK(sel.best == top);
    CHECK(std::abs(sel.noisy_score - scores[top]) < 1e-3);
    CHECK(sel.score == scores[top]);
    k_sum += static_cast<double>(sel.repetitions);
  }
  // Geometric with mean 5: sd sqrt(20).
  CHECK(std::abs(k_sum / n - 5) < 4 * std::sqrt(20.0 / n));
}

TEST_CASE("private selection: a released score's noise is Laplace(sensitivity / epsilon_0)") {
  // Where K = 1 (half of the draws of a geometric K with mean 2) the released score is one
  // noisy run: score + Laplace(b), b = sensitivity / epsilon_0 (mean 0, E|X| = b with sd b).
  release::PrivateSelectionOptions o;
  o.mean = 2;
  o.shape = 1;
  o.sensitivity = 0.3;
  o.base_epsilon = 0.25;
  const double b = 0.3 / 0.25;
  core::RngStream rng(11);
  double sum = 0, abs_sum = 0;
  int ones = 0;
  for (int t = 0; t < 40000; ++t) {
    const auto sel = release::private_selection(
        7, o, [](Eigen::Index i, core::RngStream&) { return 0.1 * static_cast<double>(i); }, rng);
    if (sel.repetitions != 1) continue;
    CHECK(sel.score == 0.1 * static_cast<double>(sel.best));
    const double x = sel.noisy_score - sel.score;
    sum += x;
    abs_sum += std::abs(x);
    ++ones;
  }
  REQUIRE(ones > 15000);
  CHECK(std::abs(sum / ones) < 4 * std::sqrt(2.0) * b / std::sqrt(double(ones)));
  CHECK(std::abs(abs_sum / ones - b) < 4 * b / std::sqrt(double(ones)));
  // The event is the Laplace mechanism of scale 1 / epsilon_0 (unit sensitivity) repeated.
  CHECK(release::private_selection_event(o) ==
        privacy::DpEvent::repeat_and_select(privacy::DpEvent::laplace(4), 2, 1));
}

TEST_CASE("private selection: event and calibration to a target epsilon") {
  for (const char* acc : {"rdp", "basic"}) {
    INFO(acc);
    const double eps0 = release::calibrate_base_epsilon(acc, 1.0, 1e-5, 10, 1);
    release::PrivateSelectionOptions o;
    o.mean = 10;
    o.shape = 1;
    o.base_epsilon = eps0;
    auto a = privacy::make_accountant(acc);
    a->compose(release::private_selection_event(o));
    const double e = a->epsilon(1e-5).epsilon;
    CHECK(e <= 1.0);
    CHECK(e == Approx(1.0).epsilon(1e-5));
    if (std::string(acc) == "basic") CHECK(eps0 == Approx(1.0 / 3).epsilon(1e-5));  // (2 + 1) eps0
  }
  CHECK(to_string(release::private_selection_event({10, 0.5, 1, 0.25})) ==
        "RepeatAndSelect(Laplace(b=4), mean=10, shape=0.5)");
}

// Per-agent ledgers against hand-composed accountants and the analytic Gaussian epsilon.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "algorithms/privacy/agent_ledgers.hpp"
#include "algorithms/privacy/pld_accountant.hpp"
#include "algorithms/privacy/rdp_accountant.hpp"
#include "analytic_gaussian.hpp"

using namespace fbosim::privacy;

namespace {

std::unique_ptr<Accountant> rdp() { return std::make_unique<RdpAccountant>(); }

}  // namespace

TEST_CASE("agent ledgers: each agent's epsilon is its own releases composed one at a time") {
  // Three releases of a subsampled Gaussian with different eligible sets, and two Gaussian
  // releases that only agent 1 took part in; every agent's reference composes its events in
  // the order they happened, one compose() per release.
  const DpEvent a = DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1.0));
  const DpEvent b = DpEvent::gaussian(4.0);
  const std::vector<std::vector<int>> eligible_a = {{0, 1, 2}, {0, 2}, {0}};
  AgentLedgers ledgers(3);
  std::vector<RdpAccountant> by_hand(3);
  for (const auto& set : eligible_a)
    for (int n : set) {
      ledgers.charge(n, a);
      by_hand[static_cast<std::size_t>(n)].compose(a);
    }
  for (int i = 0; i < 2; ++i) {
    ledgers.charge(1, b);
    by_hand[1].compose(b);
  }
  const std::vector<double> eps = ledgers.epsilons(rdp, 1e-5);
  for (int n = 0; n < 3; ++n) {
    INFO("agent " << n);
    CHECK(eps[static_cast<std::size_t>(n)] ==
          Approx(by_hand[static_cast<std::size_t>(n)].epsilon(1e-5).epsilon).epsilon(1e-12));
  }
  CHECK(ledgers.counts(0) == std::vector<long long>{3, 0});
  CHECK(ledgers.counts(1) == std::vector<long long>{1, 2});
  CHECK(ledgers.counts(2) == std::vector<long long>{2, 0});
  // Agent 2 took part in fewer releases than agent 0: a strictly smaller loss.
  CHECK(eps[2] < eps[0]);
}

TEST_CASE("agent ledgers: q = 1 Gaussian releases give each agent the analytic epsilon") {
  // k Gaussian releases of noise z compose to one of noise z / sqrt(k) (Balle & Wang 2018,
  // Thm. 8 gives its exact epsilon); agents charged k = 1, 4 and 9 times.
  const double z = 3.0, delta = 1e-5;
  const std::vector<long long> k = {1, 4, 9};
  AgentLedgers ledgers(3);
  for (int n = 0; n < 3; ++n)
    ledgers.charge(n, DpEvent::gaussian(z), k[static_cast<std::size_t>(n)]);
  const auto pld = [] { return std::make_unique<PldAccountant>(); };
  const std::vector<double> eps = ledgers.epsilons(pld, delta);
  for (int n = 0; n < 3; ++n) {
    const double exact =
        fbosim::test::analytic_gaussian_epsilon(z / std::sqrt(double(k[std::size_t(n)])), delta);
    INFO("agent " << n << " exact " << exact << " ledger " << eps[std::size_t(n)]);
    CHECK(exact <= eps[std::size_t(n)] + 1e-9);  // never below the true loss
    CHECK(eps[std::size_t(n)] - exact <= 2e-3 * exact);
  }
}

TEST_CASE("agent ledgers: a release charged to everyone and the same charged to each agree") {
  const DpEvent a = DpEvent::poisson_sampled(0.1, DpEvent::gaussian(2.0));
  AgentLedgers all(4), each(4);
  for (int t = 0; t < 30; ++t) {
    all.charge_all(a);
    for (int n = 0; n < 4; ++n) each.charge(n, a);
  }
  all.charge(3, a);  // one more for agent 3
  each.charge(3, a);
  CHECK(all.epsilons(rdp, 1e-5) == each.epsilons(rdp, 1e-5));
  CHECK(all.counts(3) == std::vector<long long>{31});
  CHECK(all.distinct() == 2);
}

TEST_CASE("agent ledgers: one composition per distinct count vector, shared by its agents") {
  const DpEvent a = DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1.0));
  AgentLedgers ledgers(1000);
  for (int n = 0; n < 1000; ++n) ledgers.charge(n, a, 1 + n % 3);
  CHECK(ledgers.distinct() == 3);
  const std::vector<double> eps = ledgers.epsilons(rdp, 1e-5);
  for (int n = 3; n < 1000; ++n) CHECK(eps[std::size_t(n)] == eps[std::size_t(n % 3)]);
  CHECK(eps[0] < eps[1]);
  CHECK(eps[1] < eps[2]);
}

TEST_CASE("agent ledgers: a charge forgotten is visible in the epsilon") {
  // The mutation a schedule must not make: a message charged once too few.
  const DpEvent a = DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1.0));
  AgentLedgers right(1), short_one(1);
  right.charge(0, a, 40);
  short_one.charge(0, a, 39);
  CHECK(short_one.epsilons(rdp, 1e-3)[0] < right.epsilons(rdp, 1e-3)[0]);
}

TEST_CASE("agent ledgers: NoOp charges nothing, NonPrivate has no epsilon, bad input throws") {
  AgentLedgers ledgers(2);
  ledgers.charge(0, DpEvent::noop(), 5);
  CHECK(ledgers.kinds().empty());
  CHECK(ledgers.epsilons(rdp, 1e-5) == std::vector<double>{0.0, 0.0});
  ledgers.charge(1, DpEvent::non_private());
  CHECK_THROWS_AS(ledgers.epsilons(rdp, 1e-5), std::domain_error);
  CHECK_THROWS_AS(ledgers.charge(2, DpEvent::gaussian(1.0)), std::out_of_range);
  CHECK_THROWS_AS(ledgers.charge(-1, DpEvent::gaussian(1.0)), std::out_of_range);
  CHECK_THROWS_AS(ledgers.charge(0, DpEvent::gaussian(1.0), -1), std::invalid_argument);
  CHECK_THROWS_AS(ledgers.charge_all(DpEvent::gaussian(1.0), -1), std::invalid_argument);
  CHECK_THROWS_AS(AgentLedgers(0), std::invalid_argument);
  CHECK_THROWS_AS(ledgers.counts(2), std::out_of_range);
}

TEST_CASE("agent ledgers: spread gives the maximum and nearest-rank median and 90th percentile") {
  std::vector<double> e;
  for (int i = 10; i >= 1; --i) e.push_back(i);  // 10 .. 1, unsorted
  const EpsilonSpread s = spread(e);
  CHECK(s.max == 10);
  CHECK(s.median == 5);  // the 5th smallest of 10
  CHECK(s.p90 == 9);     // the 9th smallest of 10
  std::vector<double> thirty;
  for (int i = 1; i <= 30; ++i) thirty.push_back(i);
  CHECK(spread(thirty).p90 == 27);  // ceil(0.9 x 30) = 27, not 28
  CHECK(spread(thirty).median == 15);
  CHECK(spread({7.0}).median == 7);
  CHECK(spread({7.0}).p90 == 7);
  CHECK_THROWS_AS(spread({}), std::invalid_argument);
}

TEST_CASE("agent ledgers: epsilon_with is the epsilon after those charges, without making them") {
  // The stop rules' look-ahead (run::schedule_stops): for each agent, an event already a kind,
  // a new kind, and both with an event after it, against the ledgers copied and charged (bit for
  // bit: the run's ledgers must reach exactly the checked value) and a hand-composed accountant.
  const DpEvent a = DpEvent::poisson_sampled(0.3, DpEvent::gaussian(1.2));
  const DpEvent b = DpEvent::gaussian(3.0);
  const DpEvent c = DpEvent::poisson_sampled(0.7, DpEvent::gaussian(2.0));
  AgentLedgers ledgers(3);
  ledgers.charge_all(b);
  ledgers.charge(0, a, 2);
  ledgers.charge(2, a);
  for (const std::vector<DpEvent>& extra :
       {std::vector<DpEvent>{a}, std::vector<DpEvent>{c}, std::vector<DpEvent>{c, b},
        std::vector<DpEvent>{a, DpEvent::noop(), c}}) {
    for (int n = 0; n < 3; ++n) {
      INFO("agent " << n << ", " << extra.size() << " events");
      AgentLedgers copy = ledgers;
      RdpAccountant by_hand;
      by_hand.compose(b);
      for (long long k = 0; k < ledgers.counts(n)[1]; ++k) by_hand.compose(a);
      for (const DpEvent& e : extra) {
        copy.charge(n, e);
        if (!e.as<NoOp>()) by_hand.compose(e);
      }
      const double with = ledgers.epsilon_with(n, extra, rdp, 1e-5);
      CHECK(with == copy.epsilons(rdp, 1e-5)[static_cast<std::size_t>(n)]);
      CHECK(with == Approx(by_hand.epsilon(1e-5).epsilon).epsilon(1e-12));
    }
  }
  // Nothing was charged.
  CHECK(ledgers.kinds().size() == 2);
  CHECK(ledgers.counts(1) == std::vector<long long>{1, 0});
}

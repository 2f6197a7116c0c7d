// One contract for every accountant make_accountant knows (house rule 4, issue #11).
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/pld_accountant.hpp"

using namespace fbosim::privacy;
using Catch::Matchers::Contains;

namespace {

struct Events {
  DpEvent a, b, unsupported;
};

// Two supported events and one unsupported one, per accountant.
Events events_for(const std::string& name) {
  if (name == "basic")
    return {DpEvent::laplace(2), DpEvent::epsilon_delta(0.3, 1e-7), DpEvent::gaussian(1)};
  return {DpEvent::poisson_sampled(0.25, DpEvent::gaussian(1.5)), DpEvent::gaussian(4),
          DpEvent::epsilon_delta(1, 0)};
}

double eps(const Accountant& acc) { return acc.epsilon(1e-5).epsilon; }

}  // namespace

TEST_CASE("every accountant keeps the event contract") {
  for (const std::string& name : accountant_names()) {
    INFO("accountant " << name);
    const Events e = events_for(name);
    auto fresh = [&] { return make_accountant(name); };

    // supports() agrees with compose(), at any depth; a refused event composes nothing.
    auto acc = fresh();
    acc->compose(e.a, 2);
    const double before = eps(*acc);
    const DpEvent deep = DpEvent::composed(
        {e.a, DpEvent::self_composed(DpEvent::composed({e.b, e.unsupported}), 3)});
    CHECK(acc->supports(e.a));
    CHECK(acc->supports(DpEvent::composed({e.a, DpEvent::self_composed(e.b, 4)})));
    CHECK_FALSE(acc->supports(e.unsupported));
    CHECK_FALSE(acc->supports(deep));
    CHECK_THROWS_WITH(acc->compose(deep), Contains(name) && Contains(to_string(e.unsupported)));
    CHECK_THROWS_AS(acc->compose(deep), std::invalid_argument);
    CHECK_THROWS_AS(acc->compose(e.a, -1), std::invalid_argument);
    CHECK(acc->steps() == 2);
    CHECK(eps(*acc) == before);

    // NoOp (alone, nested, or composed with count 0) changes nothing.
    acc->compose(DpEvent::noop(), 5);
    acc->compose(DpEvent::composed({DpEvent::noop(), DpEvent::self_composed(e.b, 0)}));
    acc->compose(e.b, 0);
    CHECK(acc->steps() == 2);
    CHECK(eps(*acc) == before);

    // SelfComposed{e, k} equals composing e k times.
    auto once = fresh(), many = fresh();
    once->compose(DpEvent::self_composed(e.a, 5));
    for (int i = 0; i < 5; ++i) many->compose(e.a);
    CHECK(once->steps() == 5);
    CHECK(eps(*once) == Approx(eps(*many)).epsilon(1e-12));

    // Composed is order-independent, and equals composing its parts.
    auto ab = fresh(), ba = fresh(), parts = fresh();
    ab->compose(DpEvent::composed({e.a, e.b, e.a}));
    ba->compose(DpEvent::composed({e.b, e.a, e.a}));
    parts->compose(e.a, 2);
    parts->compose(e.b);
    CHECK(ab->steps() == 3);
    CHECK(eps(*ab) == Approx(eps(*ba)).epsilon(1e-9));
    CHECK(eps(*ab) == Approx(eps(*parts)).epsilon(1e-9));

    // Adding events never lowers epsilon.
    auto grow = fresh();
    double last = eps(*grow);
    CHECK(last == 0);
    for (const DpEvent& next : {e.a, e.b, e.a, e.b}) {
      grow->compose(next);
      CHECK(eps(*grow) >= last);
      last = eps(*grow);
    }
    CHECK(last > 0);

    // NonPrivate is supported by everyone and leaves no finite epsilon: a loud error.
    auto leak = fresh();
    CHECK(leak->supports(DpEvent::non_private()));
    leak->compose(DpEvent::composed({e.a, DpEvent::non_private()}));
    CHECK(leak->non_private());
    CHECK(leak->steps() == 2);
    CHECK_THROWS_AS(eps(*leak), std::domain_error);
    CHECK_THROWS_WITH(eps(*leak), Contains("NonPrivate") && Contains(name));
  }
}

TEST_CASE("pld's bracket is refused after a NonPrivate event too") {
  PldAccountant pld;
  pld.compose(DpEvent::composed({DpEvent::gaussian(2), DpEvent::non_private()}));
  CHECK_THROWS_WITH(pld.epsilon_bounds(1e-5), Contains("NonPrivate"));
}

TEST_CASE("composing more than INT_MAX steps is refused before anything is composed") {
  for (const std::string& name : accountant_names()) {
    INFO("accountant " << name);
    auto acc = make_accountant(name);
    const DpEvent e = events_for(name).a;
    CHECK_THROWS_AS(
        acc->compose(DpEvent::self_composed(DpEvent::self_composed(e, 1 << 20), 1 << 12)),
        std::overflow_error);
    CHECK(acc->steps() == 0);
  }
}

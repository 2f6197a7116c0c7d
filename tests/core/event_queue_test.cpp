#include <catch2/catch.hpp>

#include <vector>

#include "core/event_queue.hpp"

using fbosim::core::EventQueue;

TEST_CASE("events run in time order, ties in insertion order") {
  EventQueue q;
  std::vector<int> order;
  q.schedule(5, [&] { order.push_back(3); });
  q.schedule(1, [&] { order.push_back(1); });
  q.schedule(5, [&] { order.push_back(4); });
  q.schedule(2, [&] { order.push_back(2); });
  q.run();
  CHECK(order == std::vector<int>{1, 2, 3, 4});
  CHECK(q.now() == 5);
}

TEST_CASE("events may schedule later events, run_until stops at the bound") {
  EventQueue q;
  std::vector<long long> times;
  q.schedule(1, [&] {
    times.push_back(q.now());
    q.schedule(q.now() + 10, [&] { times.push_back(q.now()); });
  });
  q.run_until(5);
  CHECK(times == std::vector<long long>{1});
  CHECK(q.now() == 5);
  CHECK(q.size() == 1);
  q.run();
  CHECK(times == std::vector<long long>{1, 11});
}

TEST_CASE("scheduling in the past is a logic error") {
  EventQueue q;
  q.schedule(3, [] {});
  q.run();
  CHECK_THROWS_AS(q.schedule(2, [] {}), std::logic_error);
}

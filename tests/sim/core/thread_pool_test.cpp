#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "sim/core/thread_pool.hpp"

using fbosim::core::ThreadPool;

TEST_CASE("parallel_for visits every index once, for any thread count") {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<int> hits(1000, 0);
      pool.parallel_for(hits.size(), [&](std::size_t i) { hits[i] += static_cast<int>(i); });
      for (std::size_t i = 0; i < hits.size(); ++i) REQUIRE(hits[i] == static_cast<int>(i));
    }
  }
}

TEST_CASE("an exception in a work item reaches the caller after all items finish") {
  ThreadPool pool(3);
  std::atomic<int> done{0};
  CHECK_THROWS_WITH(pool.parallel_for(50,
                                      [&](std::size_t i) {
                                        ++done;
                                        if (i == 17) throw std::runtime_error("item 17");
                                      }),
                    "item 17");
  CHECK(done == 50);
  // The pool stays usable.
  std::atomic<int> again{0};
  pool.parallel_for(10, [&](std::size_t) { ++again; });
  CHECK(again == 10);
}

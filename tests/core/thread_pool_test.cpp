#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/thread_pool.hpp"

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

TEST_CASE("an exception in a work item reaches the caller after every started item finished") {
  ThreadPool pool(3);
  std::atomic<int> started{0}, done{0};
  CHECK_THROWS_WITH(pool.parallel_for(50,
                                      [&](std::size_t i) {
                                        ++started;
                                        // Item 17 throws at once; the others take 5 ms, so the
                                        // 32 after it cannot all finish before the error is
                                        // seen (80 ms on the other two threads).
                                        if (i != 17)
                                          std::this_thread::sleep_for(std::chrono::milliseconds(5));
                                        ++done;
                                        if (i == 17) throw std::runtime_error("item 17");
                                      }),
                    "item 17");
  // Every item that started has finished; those not started by then were skipped (an
  // interrupted round stops at once instead of raising once per remaining item).
  CHECK(started == done);
  CHECK(done >= 18);
  CHECK(done < 50);
  const int finished = done;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(done == finished);  // nothing runs after parallel_for returned
  // The pool stays usable.
  std::atomic<int> again{0};
  pool.parallel_for(10, [&](std::size_t) { ++again; });
  CHECK(again == 10);
}

TEST_CASE("thread pool: the lowest failing item's exception, whatever the thread count") {
  for (const int threads : {1, 2, 4, 8})
    for (int repeat = 0; repeat < 20; ++repeat) {
      ThreadPool pool(threads);
      try {
        pool.parallel_for(16, [](std::size_t i) {
          // Later items fail first: the higher the index, the sooner it throws.
          if (i % 3 == 2) {
            std::this_thread::sleep_for(std::chrono::microseconds(50 * (16 - i)));
            throw std::runtime_error("item " + std::to_string(i));
          }
        });
        FAIL("no exception");
      } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "item 2");
      }
    }
}

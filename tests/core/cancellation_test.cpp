// The process-wide cancellation flag that Ctrl-C/SIGTERM set (issue 24 sec. 4).
#include <catch2/catch.hpp>

#include "core/cancellation.hpp"

using namespace fbosim::core;

TEST_CASE("a cancellation request makes every poll throw Cancelled until it is reset") {
  reset_cancellation();
  CHECK_FALSE(cancellation_requested());
  CHECK_NOTHROW(throw_if_cancelled());
  request_cancellation();
  CHECK(cancellation_requested());
  CHECK_THROWS_AS(throw_if_cancelled(), Cancelled);
  // A stop is not a numerical failure, but code that catches std::runtime_error sees it too
  // (which is why such code rethrows Cancelled first).
  CHECK_THROWS_AS(throw_if_cancelled(), std::runtime_error);
  reset_cancellation();
  CHECK_NOTHROW(throw_if_cancelled());
}

TEST_CASE("CancellationPoll looks at the flag once every N calls") {
  reset_cancellation();
  CancellationPoll<4> poll;
  request_cancellation();
  CHECK_NOTHROW(poll());  // calls 1-3 do not look
  CHECK_NOTHROW(poll());
  CHECK_NOTHROW(poll());
  CHECK_THROWS_AS(poll(), Cancelled);  // call 4 does
  reset_cancellation();
  for (int k = 0; k < 8; ++k) CHECK_NOTHROW(poll());
}

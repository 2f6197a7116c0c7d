#include <catch2/catch.hpp>

#include "core/text.hpp"

using fbosim::core::trim;

TEST_CASE("trim drops leading and trailing spaces and tabs, nothing inside") {
  CHECK(trim("  a b\t") == "a b");
  CHECK(trim("\tq=0.1 ") == "q=0.1");
  CHECK(trim("x") == "x");
  CHECK(trim(" \t ").empty());
  CHECK(trim("").empty());
  CHECK(trim(" a\n") == "a\n");  // only spaces and tabs
}

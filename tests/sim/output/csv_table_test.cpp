#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/output/csv_table.hpp"

using namespace fbosim::output;

TEST_CASE("CSV fields with commas and quotes round-trip") {
  const std::vector<std::string> fields = {"a,b", "say \"hi\"", "", "plain"};
  std::string line;
  for (const auto& f : fields) {
    if (!line.empty()) line += ',';
    line += csv_field(f);
  }
  CHECK(line == "\"a,b\",\"say \"\"hi\"\"\",,plain");
  CHECK(split_csv_line(line) == fields);
  CHECK_THROWS(split_csv_line("\"open"));
}

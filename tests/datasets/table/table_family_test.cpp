// The `table` family: values, domain and regret from a CSV file; every malformed table refused
// with the file, line and column named.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "datasets/objective_family_entry.hpp"
#include "datasets/table/table_family.hpp"

using namespace fbosim;
using namespace fbosim::datasets;
using Catch::Matchers::Contains;

namespace {

// A CSV file in a directory of its own, removed with the object.
struct TempCsv {
  std::filesystem::path dir, path;
  explicit TempCsv(const std::string& text) {
    static int count = 0;
    dir = std::filesystem::temp_directory_path() /
          ("fbosim-table-" + std::to_string(getpid()) + "-" + std::to_string(count++));
    std::filesystem::create_directories(dir);
    path = dir / "values.csv";
    std::ofstream(path) << text;
  }
  ~TempCsv() { std::filesystem::remove_all(dir); }
};

std::unique_ptr<ObjectiveFamily> family(const TempCsv& csv) {
  const ObjectiveFamilyEntry& e = objective_registry().at("table");
  schema::Options o = e.options;
  o.set("objective.table", csv.path.string());
  return e.make(o, "");
}

const char* kGood =
    "agent,x0,x1,y,f\n"
    "0,0,0,1.5,1\n"
    "0,0.5,1,2.5,3\n"
    "0,1,0.25,-1,-2\n"
    "1,1,0.25,7,7.5\n"
    "1,0,0,0.5,0.25\n"
    "1,0.5,1,4,4\n";

}  // namespace

TEST_CASE("table: each agent's rows, the shared points and the regret's optimum") {
  const TempCsv csv(kGood);
  const auto f = family(csv);
  CHECK(f->max_agents() == 2);
  CHECK_FALSE(f->varies_by_run());
  const auto objectives = f->make(2, core::RngFactory(0, 0));
  const core::Domain& d = objectives[0]->domain();
  REQUIRE(d.grid.rows() == 3);  // agent 0's points in file order
  CHECK(d.grid.row(1) == Eigen::RowVector2d(0.5, 1).eval());
  CHECK(&objectives[1]->domain() != nullptr);
  CHECK(objectives[1]->domain().grid == d.grid);
  core::RngStream rng(0);
  const auto a = objectives[0]->query(Eigen::Vector2d(0.5, 1), rng);
  CHECK(a.y == 2.5);
  CHECK(a.f == 3);
  const auto b = objectives[1]->query(Eigen::Vector2d(1, 0.25), rng);
  CHECK(b.y == 7);
  CHECK(b.f == 7.5);
  CHECK(*objectives[0]->optimum() == 3);  // of f
  CHECK(*objectives[1]->optimum() == 7.5);
  // Without f: f = y, and the optimum is y's largest.
  const TempCsv noisefree("x0,y,agent\n0.25,4,0\n0.75,5,0\n");
  const auto g = family(noisefree)->make(1, core::RngFactory(0, 0));
  CHECK(g[0]->query(Eigen::VectorXd::Constant(1, 0.25), rng).f == 4);
  CHECK(*g[0]->optimum() == 5);
}

TEST_CASE("table: agents.count must be the table's agents") {
  const TempCsv csv(kGood);
  const auto f = family(csv);
  CHECK_THROWS_WITH(f->make(1, core::RngFactory(0, 0)),
                    Contains("agents.count: 1 agents, but the table") && Contains("agents 0 .. 1"));
}

TEST_CASE("table: malformed tables are refused naming the file, line and column") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ":1: no header"},
      {"x0,y\n0,1\n", "no column 'agent'"},
      {"agent,x0\n0,1\n", "no column 'y'"},
      {"agent,y\n0,1\n", "no column 'x0'"},
      {"agent,x1,y\n0,1,1\n", "no column 'x0'"},
      {"agent,x0,y,z\n0,1,1,1\n", ":1: column 4 'z': unknown column"},
      {"agent,x0,y,y\n0,1,1,1\n", "column 4 'y': appears twice"},
      {"agent,x0,y\n", "the table has no rows"},
      {"agent,x0,y\n0,0.5\n", ":2: has 2 fields, the header 3"},
      {"agent,x0,y\n0,0.5,abc\n", ":2: column y: is not a number, got 'abc'"},
      {"agent,x0,y\n0,0.5,nan\n", ":2: column y: must be a finite number, got 'nan'"},
      {"agent,x0,y\n0,0.5,\n", ":2: column y: is empty"},
      {"agent,x0,y,f\n0,0.5,1,inf\n", ":2: column f: must be a finite number"},
      {"agent,x0,y\n0,1.5,1\n", ":2: column x0: must be in [0, 1]"},
      {"agent,x0,y\n-1,0.5,1\n", ":2: column agent: must be an integer"},
      {"agent,x0,y\n0.5,0.5,1\n", ":2: column agent: must be an integer"},
      {"agent,x0,y\n0,0.5,1\n0,0.5,2\n", ":3: agent 0 has point [0.5] twice (line 2 too)"},
      {"agent,x0,y\n0,0.5,1\n2,0.5,1\n", "agent 1 has no rows"},
      {"agent,x0,y\n0,0.5,1\n1,0.25,1\n", ":3: agent 1 has point [0.25] that agent 0 lacks"},
      {"agent,x0,y\n0,0.5,1\n0,0.25,1\n1,0.5,1\n", "agent 1 lacks point [0.25] of agent 0"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    const TempCsv csv(text);
    CHECK_THROWS_WITH(family(csv), Contains(csv.path.string()) && Contains(message));
  }
  CHECK_THROWS_WITH(
      [] {
        const ObjectiveFamilyEntry& e = objective_registry().at("table");
        schema::Options o = e.options;
        o.set("objective.table", std::string("/nonexistent/values.csv"));
        return e.make(o, "");
      }(),
      Contains("/nonexistent/values.csv: cannot open"));
}

// Issue 39: the table reader lacked the config reader's rules. /dev/zero and a FIFO hung it,
// strtod took hexadecimal and read 1e-400 as 0, a NUL byte ended a field silently, a UTF-8
// byte-order mark made the header's first column unknown, and a message echoed a 10 MB field.
TEST_CASE("table: read with the config reader's rules (files, numbers, text, messages)") {
  const auto make = [](const std::string& path) {
    const ObjectiveFamilyEntry& e = objective_registry().at("table");
    schema::Options o = e.options;
    o.set("objective.table", path);
    return e.make(o, "");
  };
  CHECK_THROWS_WITH(make("/dev/zero"), Contains("/dev/zero: is not a regular file"));
  const TempCsv dir("");
  const std::string fifo = (dir.dir / "fifo.csv").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(make(fifo), Contains(fifo + ": is not a regular file"));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  CHECK_THROWS_WITH(make(dir.dir.string()), Contains("is a directory"));

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"agent,x0,y\n0,0.5,0x10\n", ":2: column y: is not a number"},
      {"agent,x0,y\n0,0x1p-2,1\n", ":2: column x0: is not a number"},
      {"agent,x0,y\n0,0.5,1e-400\n", ":2: column y: is below the smallest double"},
      {"agent,x0,y\n0,0.5,-1e400\n", ":2: column y: is out of the range of a double"},
      {"agent,x0,y\n0,0.5,infinity\n", ":2: column y: must be a finite number"},
      {"agent,x0,y\n0,0.5,1_000\n", ":2: column y: is not a number"},
      {"agent,x0,y\n0,0.5,.\n", ":2: column y: is not a number"},
      {std::string("agent,x0,y\n0,0.5,1\0\n", 20), ":2: a NUL byte at character 8"},
      {std::string("agent,x0,y\n0,0.5,1\x01\n", 20), ":2: the control character 0x01"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    const TempCsv csv(text);
    CHECK_THROWS_WITH(family(csv), Contains(csv.path.string()) && Contains(message));
  }
  // A byte-order mark is skipped; a BOM elsewhere is no column name.
  const TempCsv bom("\xEF\xBB\xBF" + std::string(kGood));
  CHECK(family(bom)->make(2, core::RngFactory(0, 0))[0]->domain().grid.rows() == 3);
  // A huge field is quoted in part, with its length.
  const TempCsv huge("agent,x0,y\n0,0.5," + std::string(10'000'000, '7') + "x\n");
  try {
    family(huge);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Contains("is not a number") && Contains("... (10000001 characters)"));
    CHECK(what.size() < 400);
  }
}

// Not run by default ([.]): the per-evaluation cost of a table lookup (docs/OBJECTIVES.md):
// build/tests/test_datasets_table "[.overhead]"
TEST_CASE("table: per-evaluation overhead", "[.overhead]") {
  std::string text = "agent,x0,x1,y\n";
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j)
      text += "0," + std::to_string(i / 99.0) + "," + std::to_string(j / 99.0) + ",1\n";
  const TempCsv csv(text);
  const auto o = family(csv)->make(1, core::RngFactory(0, 0));
  const Eigen::VectorXd x = o[0]->domain().grid.row(4321).transpose();
  core::RngStream rng(0);
  const int n = 1000000;
  double sum = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < n; ++k) sum += o[0]->query(x, rng).y;
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
  std::printf("table: %.3f us per evaluation (10,000 points, %d evaluations)\n", us, n);
  CHECK(sum == n);
}

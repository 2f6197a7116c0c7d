// Issue 39 sec. 3: the resource estimate did not count a user objective's evaluations, so an
// absurd experiment through a `command` program started silently. A run now times one
// evaluation before its runs and refuses what would take longer than any experiment may.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "fbosim_process.hpp"

namespace fs = std::filesystem;

TEST_CASE("a command objective whose timed evaluations would take years is refused at once") {
  // A program that takes 2 s per query; 100 runs x 20,000 agents x (1 + 10) evaluations would
  // take 4.4e7 s (1.4 years) on one thread, above the bound of about a year.
  const std::string cfg = fbosim_test::write_temp(
      "fbosim_user_limits.yaml",
      "algorithm: dp_fts_de\nrounds: 10\nruns: 100\nagents: {count: 20000, init_points: 1}\n"
      "exploration: {subregions: 2}\nrff: {features: 10}\nlocal_ts: {features: 10}\n"
      "objective: {family: command, inputs: 2, command: 'while read q; do sleep 2; echo "
      "\"{\\\"y\\\": 0.5}\"; done'}\n");
  const fs::path out = fs::temp_directory_path() / "fbosim_user_limits_out";
  fs::remove_all(out);
  // Bounded: without the check the run would go on for years.
  const fbosim_test::Output o = fbosim_test::fbosim_with_env(
      "", "run " + cfg + " --allow-exec --quiet --threads 1 --out " + out.string(), 60);
  INFO(o.text);
  CHECK(o.status == 1);
  CHECK(o.text.find("the objective's 22000000 evaluations") != std::string::npos);
  CHECK(o.text.find("agents.count = 20000") != std::string::npos);
  CHECK(o.text.find("one took 2") != std::string::npos);
  CHECK(o.text.find("smaller sizes") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

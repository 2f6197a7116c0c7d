#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>

#include "sim/config/sweep_plan.hpp"

using namespace fbosim::config;

TEST_CASE("parse_grid splits values on top-level commas and rejects malformed grids") {
  const SweepGrid g = parse_grid("server.sampling_rate= 0.1, 0.15,0.2");
  CHECK(g.key == "server.sampling_rate");
  CHECK(g.values == std::vector<std::string>{"0.1", "0.15", "0.2"});
  // A YAML list is one value: its commas do not split.
  CHECK(parse_grid("a.b=[1, 2],{x: 3, y: 4},5").values ==
        std::vector<std::string>{"[1, 2]", "{x: 3, y: 4}", "5"});
  CHECK_THROWS_AS(parse_grid("0.1,0.2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_grid("=1,2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_grid("a=1,,2"), std::invalid_argument);
  CHECK_THROWS_WITH(parse_grid("a=1,2,1"), Catch::Contains("repeats the value '1'"));
}

TEST_CASE("SweepPlan is the cartesian product in nested-loop order with the first grid slowest") {
  const std::vector<SweepGrid> grids = {
      {"q", {"0.1", "0.2", "0.3"}}, {"z", {"1", "2"}}, {"s", {"5", "11"}}};
  const SweepPlan plan(grids);
  REQUIRE(plan.points().size() == 12);
  CHECK(plan.keys() == std::vector<std::string>{"q", "z", "s"});
  int i = 0;
  for (const auto& q : grids[0].values)
    for (const auto& z : grids[1].values)
      for (const auto& s : grids[2].values) {
        const SweepPoint& p = plan.points()[static_cast<std::size_t>(i)];
        CHECK(p.index == i);
        CHECK(p.overrides() == std::vector<std::string>{"q=" + q, "z=" + z, "s=" + s});
        CHECK(p.name == "q=" + q + ",z=" + z + ",s=" + s);
        ++i;
      }
  CHECK_THROWS_WITH(SweepPlan({{"q", {"1"}}, {"q", {"2"}}}), Catch::Contains("swept twice"));
  const SweepPlan none({});
  REQUIRE(none.points().size() == 1);
  CHECK(none.points()[0].name == "base");
  CHECK(none.points()[0].overrides().empty());
}

TEST_CASE("point names are filesystem-safe and bounded and stay unique") {
  CHECK(point_name({{"name", "a b/c"}, {"x", "[1, 2]"}}) == "name=a_b_c,x=_1,_2_");
  const std::string long_value(300, '7');
  const std::string a = point_name({{"k", long_value + "1"}});
  const std::string b = point_name({{"k", long_value + "2"}});
  CHECK(a.size() == 160 + 1 + 16);
  CHECK(a.substr(0, 160) == b.substr(0, 160));
  CHECK(a != b);
  CHECK(a.find('/') == std::string::npos);
  // Values equal once sanitised would share a directory: refused.
  CHECK_THROWS_WITH(SweepPlan({{"name", {"a b", "a_b"}}}), Catch::Contains("same directory name"));
}

TEST_CASE("shards partition the points by index mod K (1-based I)") {
  const SweepPlan plan({{"a", {"1", "2", "3", "4", "5"}}, {"b", {"x", "y"}}});
  std::multiset<int> seen;
  for (int k = 1; k <= 3; ++k) {
    const ShardSpec shard = parse_shard(std::to_string(k) + "/3");
    for (const SweepPoint& p : plan.shard(shard)) {
      CHECK(p.index % 3 == k - 1);
      seen.insert(p.index);
    }
  }
  CHECK(seen.size() == 10);
  CHECK(std::set<int>(seen.begin(), seen.end()).size() == 10);
  CHECK(plan.shard(parse_shard("1/1")).size() == 10);
  for (const char* bad : {"0/3", "4/3", "a/b", "3", "1/0", "1/3x"})
    CHECK_THROWS_WITH(parse_shard(bad), Catch::Contains(bad));
}

TEST_CASE("grids from the YAML sweep section are replaced by command-line grids of the same key") {
  const YAML::Node root = YAML::Load(
      "rounds: 3\nsweep:\n  server.sampling_rate: [0.1, 0.2]\n  server.clip_norm: 5\n"
      "  name: ['a: b', c]\n");
  const auto yaml = grids_from_yaml(root, "f.yaml");
  REQUIRE(yaml.size() == 3);
  CHECK(yaml[0].values == std::vector<std::string>{"0.1", "0.2"});
  CHECK(yaml[1].values == std::vector<std::string>{"5"});
  // A value that needs quoting in YAML keeps its quotes, so --set parses it back unchanged.
  CHECK(YAML::Load(yaml[2].values[0]).as<std::string>() == "a: b");
  const auto all =
      combine_grids(yaml, {parse_grid("server.clip_norm=7,9"), parse_grid("seed=1,2")});
  REQUIRE(all.size() == 4);
  CHECK(all[1].key == "server.clip_norm");
  CHECK(all[1].values == std::vector<std::string>{"7", "9"});
  CHECK(all[3].key == "seed");
  CHECK(grids_from_yaml(YAML::Load("rounds: 3"), "f.yaml").empty());
  CHECK_THROWS_WITH(grids_from_yaml(YAML::Load("sweep: [1, 2]"), "f.yaml"),
                    Catch::Contains("f.yaml: sweep"));
  CHECK_THROWS_WITH(grids_from_yaml(YAML::Load("sweep: {a: ~}"), "f.yaml"),
                    Catch::Contains("sweep.a") && Catch::Contains("list of values"));
}

TEST_CASE("a swept key may be dotted, nested or a dotted key of the top level, in written order") {
  // Issue #24: the three spellings of --set sweep the same key; the order written is the
  // grids' order (the first varies slowest), whichever the spelling.
  const auto grids =
      grids_from_yaml(YAML::Load("sweep:\n  server: {noise_multiplier: [1, 2]}\n  seed: [3, 4]\n"
                                 "  exploration: {weights: {start: [5]}}\nsweep.rounds: [6, 7]\n"),
                      "f.yaml");
  REQUIRE(grids.size() == 4);
  CHECK(grids[0].key == "server.noise_multiplier");
  CHECK(grids[0].values == std::vector<std::string>{"1", "2"});
  CHECK(grids[1].key == "seed");
  CHECK(grids[2].key == "exploration.weights.start");
  CHECK(grids[3].key == "rounds");
  CHECK(grids[3].values == std::vector<std::string>{"6", "7"});
  CHECK_THROWS_WITH(
      grids_from_yaml(YAML::Load("sweep:\n  seed: [1]\nsweep.seed: [2]\n"), "f.yaml"),
      Catch::Contains("sweep.seed") && Catch::Contains("line 2") && Catch::Contains("line 3"));
  // A quoted value stays text through --set ("3" is not the number 3); plain ones stay plain.
  const auto quoted = grids_from_yaml(YAML::Load("sweep: {name: ['3', a, 'b c']}"), "f.yaml");
  REQUIRE(quoted.size() == 1);
  CHECK(quoted[0].values == std::vector<std::string>{"\"3\"", "a", "b c"});
  CHECK(YAML::Load(quoted[0].values[0]).Tag() == "!");
  CHECK_THROWS_WITH(parse_grid("server..z=1,2"), Catch::Contains("empty part"));
}

TEST_CASE(
    "sweep --grid splits at commas outside brackets and quotes, and refuses unbalanced ones") {
  CHECK(parse_grid("name='a,b',c").values == std::vector<std::string>{"'a,b'", "c"});
  CHECK(parse_grid("name=\"a,\\\"b\",c").values == std::vector<std::string>{"\"a,\\\"b\"", "c"});
  CHECK(parse_grid("name=it's,x").values == std::vector<std::string>{"it's", "x"});
  CHECK(parse_grid("x=[1, 'a,]'],{k: \"v,}\"}").values ==
        std::vector<std::string>{"[1, 'a,]']", "{k: \"v,}\"}"});
  CHECK_THROWS_WITH(parse_grid("rounds=[1,2"), Catch::Contains("unclosed bracket"));
  CHECK_THROWS_WITH(parse_grid("rounds=1],2"), Catch::Contains("']' without"));
  CHECK_THROWS_WITH(parse_grid("rounds=1,'2"), Catch::Contains("unclosed quote"));
  // Messages stay short for a long argument.
  try {
    parse_grid("rounds=" + std::string(100000, '['));
    FAIL("accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).size() < 200);
  }
}

TEST_CASE("grid values that are the same number are one value, whatever their spelling") {
  CHECK_THROWS_WITH(parse_grid("server.noise_multiplier=1,1.0"),
                    Catch::Contains("repeats the value '1.0'") && Catch::Contains("equal to '1'"));
  CHECK_THROWS_WITH(parse_grid("rounds=2,02"), Catch::Contains("repeats the value '02'"));
  CHECK_THROWS_WITH(parse_grid("a=1e-3,0.001"), Catch::Contains("repeats"));
  CHECK_THROWS_WITH(parse_grid("a=0,-0.0"), Catch::Contains("repeats"));
  // Different values, and strings that only look alike, stay apart.
  CHECK(parse_grid("a=1,1.5,10").values.size() == 3);
  CHECK(parse_grid("a=inv,'inv ',[1, 2],[1,2.5]").values.size() == 4);
}

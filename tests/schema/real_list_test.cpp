// schema's list-of-reals key (Group::real_list, issue 29: rff.lengthscales) and the
// alternative keys of Group::excludes, on a toy struct with hand-written expectations: the
// documentation, reading (given, absent, null), every bad value's message, presets and the
// resolved record.
#include <catch2/catch.hpp>

#include <limits>

#include "schema/group.hpp"

using namespace fbosim::schema;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

struct Scales {
  double one = 0.5;          // the scalar alternative
  std::vector<double> each;  // none by default
  int after = 1;
};

const Group<Scales>& scale_keys() {
  static const auto g = Group<Scales>{}
                            .real_list("scales", &Scales::each, Range::above(0), "one per axis")
                            .excludes("scale")
                            .real("scale", &Scales::one, Range::above(0), "one for all")
                            .when([](const Scales& s) { return s.each.empty(); })
                            .integer("after", &Scales::after, Range::at_least(0), "a later key");
  return g;
}

using Map = std::map<std::string, std::optional<Value>>;
using List = std::vector<double>;

Scales read(const Map& values, Record* record = nullptr) {
  Scales s;
  Record r;
  scale_keys().read(s, MapSource(values, "toy.yaml"), record ? *record : r);
  return s;
}

std::string error_of(const Map& values) {
  try {
    read(values);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("schema real list: documented as an optional list, each item in its range") {
  const std::vector<KeyDoc> docs = scale_keys().docs();
  REQUIRE(docs.size() == 3);
  CHECK(docs[0].path == "scales");
  CHECK(docs[0].type == Type::real_list);
  CHECK(to_string(Type::real_list) == "real list");
  CHECK(docs[0].optional);
  CHECK(docs[0].range == Range::above(0));
  CHECK(docs[0].default_value == Resolved{Resolved::Kind::null, ""});
  Scales s;
  s.each = {0.1, 0.30000000000000004, 2};
  CHECK(scale_keys().docs(s)[0].default_value ==
        Resolved{Resolved::Kind::real_list, "[0.1, 0.30000000000000004, 2]"});
  CHECK(list_text({}) == "[]");
  CHECK(to_text(Value(List{1e-5, 3})) == "[1e-05, 3]");
}

TEST_CASE("schema real list: given, absent or null, the scalar alternative read only without it") {
  Record r1;
  const Scales given = read({{"scales", Value(List{0.1, 0.3})}}, &r1);
  CHECK(given.each == List{0.1, 0.3});
  CHECK(r1.find("scales")->kind == Resolved::Kind::real_list);
  CHECK(r1.find("scales")->text == "[0.1, 0.3]");
  CHECK_FALSE(r1.has("scale"));  // not read: not recorded, unknown to the config
  CHECK(r1.has("after"));

  Record r2;
  const Scales absent = read({{"scale", Value(0.25)}}, &r2);
  CHECK(absent.each.empty());
  CHECK(absent.one == 0.25);
  CHECK(r2.find("scales")->kind == Resolved::Kind::null);
  CHECK(r2.find("scale")->text == "0.25");

  // Null (`scales:` or `~`) is none: the way to switch a list given in a file back to the
  // scalar (--set scales=~); it clears a preset's list too.
  Scales preset;
  preset.each = {1, 2};
  Record r3;
  scale_keys().read(preset, MapSource({{"scales", std::nullopt}, {"scale", Value(0.75)}}), r3);
  CHECK(preset.each.empty());
  CHECK(preset.one == 0.75);
  CHECK(r3.find("scales")->kind == Resolved::Kind::null);
  // A single item and integers are numbers too.
  CHECK(read({{"scales", Value(List{3})}}).each == List{3});
}

TEST_CASE("schema real list: each bad value names the file, the key, the item and the value") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(error_of({{"scales", Value(0.1)}}) ==
        "toy.yaml: scales: has the wrong type (expected a list of numbers, e.g. [0.1, 0.3]), "
        "got '0.1'");
  CHECK(error_of({{"scales", Value(std::string("0.1, 0.3"))}}) ==
        "toy.yaml: scales: has the wrong type (expected a list of numbers, e.g. [0.1, 0.3]), "
        "got '0.1, 0.3'");
  CHECK(error_of({{"scales", Value(List{})}}) ==
        "toy.yaml: scales: must list at least one number, got '[]'");
  CHECK(error_of({{"scales", Value(List{0.1, -1})}}) ==
        "toy.yaml: scales: item 2 must be > 0, got '[0.1, -1]'");
  CHECK(error_of({{"scales", Value(List{0, 1})}}) ==
        "toy.yaml: scales: item 1 must be > 0, got '[0, 1]'");
  CHECK(error_of({{"scales", Value(List{1, inf})}}) ==
        "toy.yaml: scales: item 2 must be a finite number, got '[1, inf]'");
  CHECK(error_of({{"scales", Value(List{std::nan("")})}}) ==
        "toy.yaml: scales: item 1 must be a finite number, got '[nan]'");
  // Both alternatives given: refused at the list, naming both (a null list is not given).
  CHECK(error_of({{"scales", Value(List{0.1, 0.3})}, {"scale", Value(0.2)}}) ==
        "toy.yaml: scales: give either scales or scale, not both (toy.yaml: scale is given "
        "too), got '[0.1, 0.3]'");
  CHECK(error_of({{"scales", std::nullopt}, {"scale", Value(0.2)}}) == "(no error)");
  try {
    read({{"scales", Value(List{-1})}});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.key() == "scales");
  }
}

TEST_CASE("schema real list: presets by value, checked like a read") {
  Scales s;
  scale_keys().set(s, "scales", Value(List{0.5, 4}));
  CHECK(s.each == List{0.5, 4});
  CHECK_THROWS_WITH(scale_keys().set(s, "scales", Value(0.5)), Contains("expected a list"));
  CHECK_THROWS_WITH(scale_keys().set(s, "scales", Value(List{})), Contains("at least one"));
  CHECK_THROWS_WITH(scale_keys().set(s, "scales", Value(List{1, -2})),
                    Equals("preset scales = [1, -2]: every item must be > 0"));
  CHECK_THROWS_AS(Group<Scales>{}.excludes("x"), std::logic_error);  // no key before it
}

// schema: ranges, name tables, groups (defaults, reading, every error message, the resolved
// record, presets, steps, composition), type-erased options, registries and the catalog, on a
// toy option struct with hand-written expectations.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "schema/catalog.hpp"
#include "schema/options.hpp"
#include "schema/registry.hpp"
#include "schema/suggest.hpp"

using namespace fbosim::schema;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

enum class Colour { red, green, blue };
inline constexpr EnumNames<Colour> kColourNames{
    {Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}};
inline constexpr EnumNames<bool> kSideNames{{true, "left"}, {false, "right"}};

struct Inner {
  double scale = 0.5;
  int steps = 4;
};

struct Toy {
  int count = 3;
  std::int64_t ticks = -2;
  std::uint64_t seed = 7;
  double rate = 0.25;
  bool flag = true;
  std::string label = "x";
  Colour colour = Colour::green;
  bool left = false;
  std::optional<double> limit;
  std::vector<std::string> extras;
  Inner inner;
  std::string family = "a";
  int derived = 0;
};

const std::vector<std::string>& families() {
  static const std::vector<std::string> f = {"a", "bb", "ccc"};
  return f;
}

const Group<Inner>& inner_keys() {
  static const auto g = Group<Inner>{}
                            .real("inner.scale", &Inner::scale, Range::above(0), "a scale")
                            .integer("inner.steps", &Inner::steps, Range::at_least(1), "steps");
  return g;
}

const Group<Toy>& toy_keys() {
  static const auto g =
      Group<Toy>{}
          .integer("count", &Toy::count, Range::closed(1, 10), "how many")
          .integer("ticks", &Toy::ticks, Range::any(), "ticks")
          .integer("seed", &Toy::seed, Range::at_least(0), "the seed")
          .real("rate", &Toy::rate, Range::left_open(0, 1), "q")
          .boolean("flag", &Toy::flag, "a flag")
          .text("label", &Toy::label, "a label")
          .note("the file's stem")
          .choice("colour", &Toy::colour, kColourNames, "a colour")
          .choice("side", &Toy::left, kSideNames, "a side")
          .real("limit", &Toy::limit, Range::above(0), "an optional limit")
          .text_list(
              "extras", &Toy::extras, [] { return families(); }, "family", "extra families")
          .include(inner_keys(), &Toy::inner)
          .choice(
              "family", &Toy::family, [] { return families(); }, "the family")
          .then([](Toy& t) {
            if (t.family == "ccc") t.derived = 30;
          })
          .integer("derived", &Toy::derived, Range::at_least(0), "derived from family")
          .when([](const Toy& t) { return t.family != "bb"; })
          .check([](const Toy& t, Problems& p) {
            if (t.count > t.inner.steps) p.push_back({"count", "must be <= inner.steps"});
          });
  return g;
}

using Map = std::map<std::string, std::optional<Value>>;

Toy read(const Map& values, Record* record = nullptr) {
  Toy t;
  Record r;
  toy_keys().read(t, MapSource(values, "toy.yaml"), record ? *record : r);
  return t;
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

TEST_CASE("schema::Range: membership at open and closed ends, text as the catalog writes it") {
  CHECK(Range::closed(1, 100000).text() == "[1, 100000]");
  CHECK(Range::above(0).text() == "> 0");
  CHECK(Range::at_least(0).text() == ">= 0");
  CHECK(Range::left_open(0, 1).text() == "(0, 1]");
  CHECK(Range::right_open(0, 1).text() == "[0, 1)");
  CHECK(Range::open(0, 1).text() == "(0, 1)");
  CHECK(Range::closed(0, 1e12).text() == "[0, 1e+12]");
  CHECK(Range::any().text().empty());
  CHECK(Range::closed(1, 10).requirement() == "must be in [1, 10]");
  CHECK(Range::above(0).requirement() == "must be > 0");
  CHECK(Range::closed(1, 10).contains(1));
  CHECK(Range::closed(1, 10).contains(10));
  CHECK_FALSE(Range::closed(1, 10).contains(10.000001));
  CHECK_FALSE(Range::above(0).contains(0));
  CHECK(Range::above(0).contains(1e-300));
  CHECK_FALSE(Range::right_open(0, 1).contains(1));
  CHECK(Range::right_open(0, 1).contains(0));
  CHECK_FALSE(Range::left_open(0, 1).contains(0));
  CHECK(Range::any().contains(-1e308));
  CHECK_FALSE(Range::any().contains(std::nan("")));
  CHECK_FALSE(Range::closed(0, 1).contains(std::nan("")));
}

TEST_CASE("schema::EnumNames: one table gives names, parsing, its error and subsets") {
  static_assert(kColourNames.size() == 3);
  CHECK(kColourNames.name(Colour::blue) == "blue");
  CHECK(kColourNames.parse("red") == Colour::red);
  CHECK(kColourNames.find("purple") == std::nullopt);
  CHECK_THROWS_WITH(kColourNames.parse("purple", "colour"),
                    Equals("colour must be one of red, green, blue; got 'purple'"));
  CHECK_THROWS_WITH(kColourNames.parse("x"), Equals("must be one of red, green, blue; got 'x'"));
  CHECK(kColourNames.names() == std::vector<std::string>{"red", "green", "blue"});
  const auto two = kColourNames.subset({Colour::blue, Colour::red});
  CHECK(two.names() == std::vector<std::string>{"red", "blue"});  // the table's order
  CHECK_THROWS_AS(two.name(Colour::green), std::logic_error);
  CHECK(kSideNames.name(false) == "right");
  // A name or value given twice is a programming error.
  CHECK_THROWS_AS((EnumNames<Colour>{{Colour::red, "red"}, {Colour::green, "red"}}),
                  std::logic_error);
  CHECK_THROWS_AS((EnumNames<Colour>{{Colour::red, "red"}, {Colour::red, "rouge"}}),
                  std::logic_error);
  CHECK_THROWS_AS((EnumNames<Colour>{{Colour::red, ""}}), std::logic_error);
}

TEST_CASE("schema::Group: defaults are the members' initialisers, with type, range, choices") {
  const std::vector<KeyDoc> docs = toy_keys().docs();
  std::vector<std::string> paths;
  for (const KeyDoc& d : docs) paths.push_back(d.path);
  CHECK(paths == std::vector<std::string>{"count", "ticks", "seed", "rate", "flag", "label",
                                          "colour", "side", "limit", "extras", "inner.scale",
                                          "inner.steps", "family", "derived"});
  const auto doc = [&](const std::string& p) {
    for (const KeyDoc& d : docs)
      if (d.path == p) return d;
    FAIL("no key " << p);
    return KeyDoc{};
  };
  using K = Resolved::Kind;
  CHECK(doc("count").type == Type::integer);
  CHECK(doc("count").default_value == Resolved{K::integer, "3"});
  CHECK(doc("count").range == Range::closed(1, 10));
  CHECK(doc("count").meaning == "how many");
  CHECK(doc("ticks").default_value == Resolved{K::integer, "-2"});
  CHECK(doc("seed").default_value == Resolved{K::integer, "7"});
  CHECK(doc("rate").type == Type::real);
  CHECK(doc("rate").default_value == Resolved{K::real, "0.25"});
  CHECK(doc("flag").type == Type::boolean);
  CHECK(doc("flag").default_value == Resolved{K::boolean, "true"});
  CHECK_FALSE(doc("flag").range);
  CHECK(doc("label").default_value == Resolved{K::text, "x"});
  CHECK(doc("label").default_note == "the file's stem");
  CHECK(doc("colour").type == Type::choice);
  CHECK(doc("colour").choices == std::vector<std::string>{"red", "green", "blue"});
  CHECK(doc("colour").default_value == Resolved{K::text, "green"});
  CHECK(doc("side").default_value == Resolved{K::text, "right"});
  CHECK(doc("limit").optional);
  CHECK(doc("limit").default_value == Resolved{K::null, ""});
  CHECK(doc("extras").type == Type::text_list);
  CHECK(doc("extras").choices == families());
  CHECK(doc("extras").default_value == Resolved{K::text, ""});
  CHECK(doc("inner.scale").default_value == Resolved{K::real, "0.5"});
  CHECK(doc("family").choices == families());
  // From another struct: its values.
  Toy t;
  t.rate = 0.1 + 0.2;
  t.limit = 1e-5;
  t.extras = {"a", "ccc"};
  t.inner.steps = 9;
  const std::vector<KeyDoc> other = toy_keys().docs(t);
  CHECK(other[3].default_value.text == "0.30000000000000004");  // the shortest round trip
  CHECK(other[8].default_value == Resolved{K::real, "1e-05"});
  CHECK(other[9].default_value.text == "a,ccc");
  CHECK(other[11].default_value.text == "9");
}

TEST_CASE(
    "schema::Group::read: absent keys keep their defaults, given ones are stored, and "
    "every key read is recorded in order") {
  Record record;
  const Toy t = read({{"count", Value(std::int64_t{2})},
                      {"rate", Value(1.0)},
                      {"colour", Value(std::string("blue"))},
                      {"side", Value(std::string("left"))},
                      {"inner.scale", Value(std::int64_t{2})},
                      {"extras", Value(std::string(" bb, a,bb ,, "))},
                      {"limit", Value(0.03)},
                      {"label", Value(std::int64_t{12})}},
                     &record);
  CHECK(t.count == 2);
  CHECK(t.ticks == -2);
  CHECK(t.rate == 1.0);
  CHECK(t.colour == Colour::blue);
  CHECK(t.left);
  CHECK(t.inner.scale == 2.0);
  CHECK(t.inner.steps == 4);
  CHECK(t.extras == std::vector<std::string>{"bb", "a"});
  CHECK(t.limit == 0.03);
  CHECK(t.label == "12");  // a text key takes any value as written
  std::vector<std::string> lines;
  for (const auto& [path, v] : record.entries()) lines.push_back(path + "=" + v.text);
  CHECK(lines == std::vector<std::string>{"count=2", "ticks=-2", "seed=7", "rate=1", "flag=true",
                                          "label=12", "colour=blue", "side=left", "limit=0.03",
                                          "extras= bb, a,bb ,, ", "inner.scale=2", "inner.steps=4",
                                          "family=a", "derived=0"});
  CHECK(record.find("limit")->kind == Resolved::Kind::real);
  CHECK(record.find("label")->kind == Resolved::Kind::text);
  CHECK(record.find("flag")->kind == Resolved::Kind::boolean);
}

TEST_CASE("schema::Group::read: optional keys, conditions, derived defaults") {
  Record r1;
  read({{"limit", std::nullopt}}, &r1);  // given without a value: allowed for an optional key
  CHECK(r1.find("limit")->kind == Resolved::Kind::null);
  // A key read only under a condition is neither read nor recorded otherwise.
  Record r2;
  const Toy bb = read({{"family", Value(std::string("bb"))}}, &r2);
  CHECK_FALSE(r2.has("derived"));
  CHECK(bb.derived == 0);
  // A step derives a later key's default from an earlier key; the later key may override it.
  CHECK(read({{"family", Value(std::string("ccc"))}}).derived == 30);
  CHECK(
      read({{"family", Value(std::string("ccc"))}, {"derived", Value(std::int64_t{5})}}).derived ==
      5);
  // A step does not run for docs: the documented default is the member's.
  CHECK(toy_keys().docs()[13].default_value.text == "0");
}

TEST_CASE("schema::Group::read: each bad value gets the config reader's message") {
  using I = std::int64_t;
  CHECK(error_of({{"count", std::nullopt}}) ==
        "toy.yaml: count: has no value (give one, or leave the key out for the default)");
  CHECK(error_of({{"count", Value(2.5)}}) ==
        "toy.yaml: count: has the wrong type (expected an integer), got '2.5'");
  CHECK(error_of({{"count", Value(I{11})}}) == "toy.yaml: count: must be in [1, 10], got 11");
  CHECK(error_of({{"count", Value(I{0})}}) == "toy.yaml: count: must be in [1, 10], got 0");
  CHECK(error_of({{"count", Value(I{1} << 40)}}) ==
        "toy.yaml: count: has the wrong type (expected an integer; out of range), got "
        "'1099511627776'");
  CHECK(error_of({{"seed", Value(I{-1})}}) ==
        "toy.yaml: seed: has the wrong type (expected an integer >= 0), got '-1'");
  CHECK(error_of({{"rate", Value(0.0)}}) == "toy.yaml: rate: must be in (0, 1], got 0");
  CHECK(error_of({{"rate", Value(std::numeric_limits<double>::infinity())}}) ==
        "toy.yaml: rate: must be a finite number, got 'inf'");
  CHECK(error_of({{"rate", Value(std::string("fast"))}}) ==
        "toy.yaml: rate: has the wrong type (expected a number), got 'fast'");
  CHECK(error_of({{"flag", Value(I{1})}}) ==
        "toy.yaml: flag: has the wrong type (expected true or false), got '1'");
  CHECK(error_of({{"colour", Value(std::string("gren"))}}) ==
        "toy.yaml: colour: must be one of red, green, blue, got 'gren' (did you mean 'green'?)");
  CHECK(error_of({{"colour", Value(std::string("purple"))}}) ==
        "toy.yaml: colour: must be one of red, green, blue, got 'purple'");
  CHECK(error_of({{"family", Value(std::string("zzzz"))}}) ==
        "toy.yaml: family: must be one of a, bb, ccc, got 'zzzz'");
  CHECK(error_of({{"family", Value(std::string("cc"))}}) ==
        "toy.yaml: family: must be one of a, bb, ccc, got 'cc' (did you mean 'ccc'?)");
  CHECK(error_of({{"extras", Value(std::string("a,zz"))}}) ==
        "toy.yaml: extras: unknown family 'zz' (choose from a, bb, ccc), got a,zz");
  CHECK(error_of({{"limit", Value(-1.0)}}) == "toy.yaml: limit: must be > 0, got -1");
  CHECK(error_of({{"inner.scale", Value(0.0)}}) == "toy.yaml: inner.scale: must be > 0, got 0");
  // A check across keys names its key, with the value as written.
  CHECK(error_of({{"count", Value(I{6})}}) == "toy.yaml: count: must be <= inner.steps, got 6");
  CHECK(error_of({{"count", Value(I{6})}, {"inner.steps", Value(I{6})}}) == "(no error)");
  // Messages cut long values.
  const std::string long_text(100, 'z');
  CHECK(error_of({{"colour", Value(long_text)}}) ==
        "toy.yaml: colour: must be one of red, green, blue, got '" + std::string(57, 'z') + "...'");
  // The key of the Error is the key at fault.
  try {
    read({{"inner.steps", Value(I{0})}});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.key() == "inner.steps");
  }
}

TEST_CASE("schema::Group::set: presets by value, checked like a read") {
  Toy t;
  const auto& g = toy_keys();
  g.set(t, "count", Value(std::int64_t{8}));
  g.set(t, "inner.steps", Value(std::int64_t{8}));
  g.set(t, "rate", Value(std::int64_t{1}));  // an integer for a real key
  g.set(t, "colour", Value(std::string("red")));
  g.set(t, "side", Value(std::string("left")));
  g.set(t, "limit", Value(2.0));
  g.set(t, "inner.scale", Value(0.125));
  g.set(t, "extras", Value(std::string("ccc,a")));
  CHECK(t.count == 8);
  CHECK(t.rate == 1.0);
  CHECK(t.colour == Colour::red);
  CHECK(t.left);
  CHECK(t.limit == 2.0);
  CHECK(t.inner.scale == 0.125);
  CHECK(t.extras == std::vector<std::string>{"ccc", "a"});
  // A preset's default shows in the documentation; reading keeps it unless given.
  CHECK(g.docs(t)[0].default_value.text == "8");
  Record r;
  g.read(t, MapSource({}), r);
  CHECK(t.count == 8);
  CHECK(r.find("count")->text == "8");
  // A wrong preset is a programming error.
  CHECK_THROWS_WITH(g.set(t, "count", Value(std::int64_t{11})),
                    Equals("preset count = 11: must be in [1, 10]"));
  CHECK_THROWS_WITH(g.set(t, "count", Value(0.5)), Contains("expected an integer"));
  CHECK_THROWS_WITH(g.set(t, "colour", Value(std::string("pink"))),
                    Contains("not one of red, green, blue"));
  CHECK_THROWS_WITH(g.set(t, "flag", Value(std::string("yes"))), Contains("expected true"));
  CHECK_THROWS_WITH(g.set(t, "nope", Value(true)), Contains("no key 'nope'"));
  CHECK_THROWS_AS(g.set(t, "extras", Value(std::string("zz"))), std::logic_error);
}

TEST_CASE("schema::Group: composition (include, only, without), nested members, duplicates") {
  struct Outer {
    Toy toy;
    Inner a;
    std::uint64_t whole = 5;
  };
  const auto g = Group<Outer>{}
                     .include(inner_keys().only({"inner.steps"}), &Outer::a)
                     .real("scale", at(&Outer::toy, &Toy::inner, &Inner::scale), Range::above(0),
                           "three members deep");
  CHECK(g.paths() == std::vector<std::string>{"inner.steps", "scale"});
  Outer o;
  Record r;
  g.read(o, MapSource({{"scale", Value(3.0)}, {"inner.steps", Value(std::int64_t{7})}}), r);
  CHECK(o.toy.inner.scale == 3.0);
  CHECK(o.a.steps == 7);
  CHECK(o.a.scale == 0.5);
  CHECK(toy_keys().without({"count", "ticks"}).paths().front() == "seed");
  CHECK_THROWS_AS(toy_keys().only({"nope"}), std::logic_error);
  // A key declared twice, directly or by inclusion, is refused.
  CHECK_THROWS_AS((Group<Inner>{}
                       .real("x", &Inner::scale, Range::any(), "")
                       .integer("x", &Inner::steps, Range::any(), "")),
                  std::logic_error);
  CHECK_THROWS_AS(Group<Inner>{}.include(inner_keys()).include(inner_keys()), std::logic_error);
  // A group on a single value: one key shared by several structs.
  const auto single = Group<std::uint64_t>{}.integer(
      "seed", Lens<std::uint64_t, std::uint64_t>::whole(), Range::at_least(0), "a shared key");
  const auto host = Group<Outer>{}.include(single, &Outer::whole);
  CHECK(host.docs()[0].default_value.text == "5");
  Outer h;
  host.read(h, MapSource({{"seed", Value(std::int64_t{9})}}), r);
  CHECK(h.whole == 9);
}

TEST_CASE("schema::Options: a struct of any type with its keys, copied by value") {
  Options o(toy_keys());
  CHECK(o.holds<Toy>());
  CHECK_FALSE(o.holds<Inner>());
  CHECK(o.has("inner.scale"));
  CHECK_FALSE(o.has("scale"));
  o.apply({{"count", Value(std::int64_t{9})},
           {"inner.steps", Value(std::int64_t{9})},
           {"colour", Value(std::string("blue"))}});
  Options copy = o;
  copy.set("count", Value(std::int64_t{1}));
  CHECK(o.as<Toy>().count == 9);
  CHECK(copy.as<Toy>().count == 1);
  CHECK(o.docs()[6].default_value.text == "blue");
  Record r;
  o.read(MapSource({{"rate", Value(0.5)}}), r);
  CHECK(o.as<Toy>().rate == 0.5);
  CHECK(r.find("count")->text == "9");
  CHECK_THROWS_AS(o.as<Inner>(), std::logic_error);
  Options none;
  CHECK(none.docs().empty());
  CHECK_THROWS_AS(none.set("count", Value(true)), std::logic_error);
}

TEST_CASE("schema::Registry: ordered, named once, found by name") {
  struct Entry {
    std::string name;
    int n = 0;
  };
  Registry<Entry> r;
  r.add({"b", 1}).add({"a", 2});
  CHECK(r.names() == std::vector<std::string>{"b", "a"});
  CHECK(r.find("a")->n == 2);
  CHECK(r.find("c") == nullptr);
  CHECK(r.at("b").n == 1);
  CHECK_THROWS_WITH(r.at("c"), Equals("unknown name 'c' (known: b, a)"));
  CHECK_THROWS_AS(r.add({"a", 3}), std::logic_error);
  CHECK_THROWS_AS(r.add({"", 3}), std::logic_error);
  CHECK(r.size() == 2);
}

TEST_CASE(
    "schema::Catalog: declarations merged by path, each owner's default, conflicts "
    "refused") {
  using K = Resolved::Kind;
  const auto key = [](std::string path, std::string value, std::string meaning = "m") {
    KeyDoc d;
    d.path = std::move(path);
    d.type = Type::integer;
    d.meaning = std::move(meaning);
    d.default_value = {K::integer, std::move(value)};
    return d;
  };
  Catalog c;
  c.add(Owner::experiment, "", {key("rounds", "60"), key("server.accountant", "7")});
  c.add(Owner::algorithm, "fts", {key("rff.features", "50")});
  c.add(Owner::algorithm, "rgpe", {key("rff.features", "100")});
  c.add(Owner::family, "gp_grid", {key("objective.noise_var", "1")});
  c.add(Owner::family, "gp_grid2d", {key("objective.noise_var", "2")});
  c.add_default("server.accountant", "po", {K::integer, "3"});
  REQUIRE(c.keys().size() == 4);
  const CatalogKey& rff = *c.find("rff.features");
  CHECK(rff.owners == std::vector<std::string>{"fts", "rgpe"});
  CHECK(rff.read_by("fts"));
  CHECK_FALSE(rff.read_by("po"));
  CHECK(rff.applies_to_family("anything"));
  CHECK(rff.default_for("rgpe", "gp_grid")->text == "100");
  CHECK_FALSE(rff.default_for("po", "gp_grid"));
  const CatalogKey& noise = *c.find("objective.noise_var");
  CHECK(noise.read_by("po"));
  CHECK_FALSE(noise.applies_to_family("landmine"));
  CHECK(noise.default_for("fts", "gp_grid2d")->text == "2");
  CHECK(c.find("rounds")->default_for("po", "gp_grid")->text == "60");
  CHECK(c.find("server.accountant")->default_for("po", "")->text == "3");
  CHECK(c.find("server.accountant")->default_for("fts", "")->text == "7");
  CHECK(c.find("nope") == nullptr);
  CHECK_THROWS_WITH(c.add(Owner::algorithm, "taf", {key("rff.features", "100", "other")}),
                    Contains("differs in its meaning"));
  CHECK_THROWS_WITH(c.add(Owner::family, "x", {key("rff.features", "1")}),
                    Contains("owners of different kinds"));
  CHECK_THROWS_AS(c.add(Owner::algorithm, "fts", {key("rff.features", "50")}), std::logic_error);
  CHECK_THROWS_AS(c.add_default("rff.features", "po", {K::integer, "1"}), std::logic_error);
}

TEST_CASE("schema: did-you-mean and value texts") {
  CHECK(closest_match("rouns", {"rounds", "runs", "seed"}) == "rounds");
  CHECK(did_you_mean("zzzzzz", {"rounds"}).empty());
  CHECK(shortest(0.03) == "0.03");
  CHECK(shortest(1e-5) == "1e-05");
  CHECK(shortest(3.0041660239464334) == "3.0041660239464334");
  CHECK(to_text(Value(std::int64_t{-4})) == "-4");
  CHECK(to_text(Value(false)) == "false");
  CHECK(shorten(std::string(61, 'a')).size() == 60);
}

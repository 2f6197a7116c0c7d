// Group::applies_when (issue 39): a key that the configured variant ignores is refused when
// given with a value other than the one in force, naming the key, its value, the governing
// key's value and the condition under which it applies; given with the value in force (as every
// config.resolved.yaml records every key) it is accepted; either way it is recorded. Checked on
// a toy struct, and through an included group (the condition is declared by the host).
#include <catch2/catch.hpp>

#include "schema/group.hpp"

using namespace fbosim::schema;
using Catch::Matchers::Contains;

namespace {

enum class Mode { plain, tuned };
inline constexpr EnumNames<Mode> kModeNames{{Mode::plain, "plain"}, {Mode::tuned, "tuned"}};

struct Knobs {
  double gain = 0.5;
  int steps = 3;
};

struct Device {
  Mode mode = Mode::plain;
  Knobs knobs;
};

const Group<Knobs>& knob_keys() {
  static const auto g = Group<Knobs>{}
                            .real("knobs.gain", &Knobs::gain, Range::above(0), "gain")
                            .integer("knobs.steps", &Knobs::steps, Range::at_least(1), "steps");
  return g;
}

const Group<Device>& device_keys() {
  static const auto g =
      Group<Device>{}
          .choice("mode", &Device::mode, kModeNames, "mode")
          .include(knob_keys(), &Device::knobs)
          .applies_when(
              {"knobs.gain", "knobs.steps"}, "mode",
              [](const Device& d) { return d.mode == Mode::tuned; }, "mode: tuned");
  return g;
}

Device read(std::map<std::string, std::optional<Value>> values, Record& record) {
  Device d;
  device_keys().read(d, MapSource(std::move(values), "dev.yaml"), record);
  return d;
}

}  // namespace

TEST_CASE("applies_when: a key given with another value where it does not apply is refused") {
  Record r;
  try {
    read({{"knobs.gain", Value(2.0)}}, r);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.key() == "knobs.gain");
    CHECK_THAT(e.what(), Contains("dev.yaml: knobs.gain"));
    CHECK_THAT(e.what(), Contains("changes nothing with mode: plain"));
    CHECK_THAT(e.what(), Contains("it applies only with mode: tuned"));
    CHECK_THAT(e.what(), Contains("got 2"));
  }
  Record r2;
  CHECK_THROWS_WITH(
      read({{"mode", Value(std::string("plain"))}, {"knobs.steps", Value(std::int64_t{5})}}, r2),
      Contains("knobs.steps") && Contains("mode: plain"));
}

TEST_CASE("applies_when: the value in force is accepted and every key is recorded") {
  Record r;
  const Device d = read({{"knobs.gain", Value(0.5)}, {"knobs.steps", Value(std::int64_t{3})}}, r);
  CHECK(d.knobs.gain == 0.5);
  REQUIRE(r.find("knobs.gain"));
  CHECK(r.find("knobs.gain")->text == "0.5");
  REQUIRE(r.find("knobs.steps"));
  CHECK(r.find("knobs.steps")->text == "3");
}

TEST_CASE("applies_when: where the condition holds the key is read as any other") {
  Record r;
  const Device d = read({{"mode", Value(std::string("tuned"))}, {"knobs.gain", Value(2.0)}}, r);
  CHECK(d.knobs.gain == 2.0);
  CHECK(r.find("knobs.gain")->text == "2");
}

TEST_CASE("applies_when: a bad value is refused as such first") {
  Record r;
  CHECK_THROWS_WITH(read({{"knobs.gain", Value(-1.0)}}, r), Contains("must be"));
}

TEST_CASE("applies_when: the documentation carries the condition") {
  const std::vector<KeyDoc> docs = device_keys().docs();
  REQUIRE(docs.size() == 3);
  CHECK(docs[0].applies_when.empty());
  CHECK(docs[1].applies_when == "mode: tuned");
  CHECK(docs[2].applies_when == "mode: tuned");
}

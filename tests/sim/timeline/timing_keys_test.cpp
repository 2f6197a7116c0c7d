#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <string>

#include "schema/source.hpp"
#include "sim/timeline/timeline.hpp"
#include "sim/timeline/timing_keys.hpp"

using namespace fbosim;
using namespace fbosim::timeline;
using Catch::Matchers::Equals;
using schema::Value;

namespace {
using Map = std::map<std::string, std::optional<Value>>;

TimingSpec read(const Map& values, schema::Record* record = nullptr) {
  TimingSpec s;
  schema::Record r;
  timing_keys().read(s, schema::MapSource(values, "c.yaml"), record ? *record : r);
  return s;
}
std::string error_of(const Map& values) {
  try {
    read(values);
  } catch (const schema::Error& e) {
    return e.what();
  }
  return "no error";
}
Value text(const char* s) { return Value(std::string(s)); }
}  // namespace

TEST_CASE("timing keys: the defaults are the papers' world, and only the model's keys are read") {
  schema::Record r;
  const TimingSpec s = read({}, &r);
  CHECK(s.duration.model == DurationKind::constant);
  CHECK(s.duration.mean == 1.0);
  CHECK(s.availability.model == AvailabilityKind::always);
  CHECK(r.has("timing.duration.mean"));
  CHECK_FALSE(r.has("timing.duration.sigma"));
  CHECK_FALSE(r.has("timing.availability.on"));
  for (const schema::KeyDoc& d : timing_keys().docs()) CHECK_FALSE(d.meaning.empty());
}

TEST_CASE("timing keys: a lognormal duration, tiers and on/off availability read and build") {
  const TimingSpec s = read({{"timing.duration.model", text("lognormal")},
                             {"timing.duration.mean", Value(2.0)},
                             {"timing.duration.sigma", Value(0.5)},
                             {"timing.tiers.fractions", Value(std::vector<double>{0.2})},
                             {"timing.tiers.slowdowns", Value(std::vector<double>{10.0})},
                             {"timing.availability.model", text("fixed")},
                             {"timing.availability.on", Value(30.0)},
                             {"timing.availability.off", Value(10.0)}});
  CHECK(s.duration.model == DurationKind::lognormal);
  CHECK(s.duration.sigma == 0.5);
  CHECK(s.tiers.slowdowns == std::vector<double>{10.0});
  CHECK(s.availability.on == 30.0);
  Timeline t(TimingModel::from_spec(s, 10, core::RngFactory(1, 0)));
  CHECK(t.model().duration_model().mean() == 2.0);
  CHECK(t.next().has_value());
}

TEST_CASE("timing keys: bad values are errors naming the key and the value") {
  CHECK_THAT(error_of({{"timing.duration.model", text("gamma")}}),
             Equals("c.yaml: timing.duration.model: must be one of constant, uniform, "
                    "half_normal, exponential, lognormal, pareto, got 'gamma'"));
  CHECK(error_of({{"timing.duration.model", text("lognormal")},
                  {"timing.duration.sigma", Value(6.0)}}) ==
        "c.yaml: timing.duration.sigma: must be in (0, 5] for a lognormal duration, got 6");
  CHECK(error_of({{"timing.duration.model", text("uniform")},
                  {"timing.duration.low", Value(2.0)},
                  {"timing.duration.high", Value(1.0)}}) ==
        "c.yaml: timing.duration.high: must be > timing.duration.low, got 1");
  CHECK_THAT(
      error_of({{"timing.duration.model", text("pareto")}, {"timing.duration.shape", Value(1.0)}}),
      Catch::Contains("timing.duration.shape: must be > 1"));
  CHECK_THAT(error_of({{"timing.duration.mean", Value(0.0)}}),
             Catch::Contains("timing.duration.mean: must be in (0, 1e+09]"));
  CHECK(error_of({{"timing.tiers.fractions", Value(std::vector<double>{0.2, 0.3})},
                  {"timing.tiers.slowdowns", Value(std::vector<double>{10.0})}}) ==
        "c.yaml: timing.tiers.slowdowns: must have one slowdown per fraction of "
        "timing.tiers.fractions (2), got [10]");
  CHECK(error_of({{"timing.tiers.fractions", Value(std::vector<double>{0.7, 0.6})},
                  {"timing.tiers.slowdowns", Value(std::vector<double>{10.0, 2.0})}}) ==
        "c.yaml: timing.tiers.fractions: must sum to at most 1 (sum 1.3), got [0.7, 0.6]");
  CHECK(error_of({{"timing.availability.model", text("trace")}}) ==
        "c.yaml: timing.availability.model: needs timing.availability.trace, a CSV file of "
        "online intervals, got trace");
}

#include "algorithms/de/weight_schedule.hpp"
#include "schema/group.hpp"

namespace fbosim::de {

const schema::Group<WeightSchedule::Options>& weight_keys() {
  using O = WeightSchedule::Options;
  using schema::Range;
  static const auto g =
      schema::Group<O>{}
          .choice("exploration.weights.scheme", &O::scheme, kWeightSchemeNames,
                  "`softmax` (the paper's), `linear`, `quadratic` (Fig. 9), `equal` (Fig. 5 "
                  "ablation)")
          .real("exploration.weights.start", &O::start, Range::at_least(1),
                "a_t at the start (a + 1 with the paper's a = 15)")
          .real("exploration.weights.end", &O::end, Range::at_least(1),
                "a_t after the decay (1 = uniform weights)")
          .check([](const O& o, schema::Problems& p) {
            if (o.end > o.start)
              p.push_back({"exploration.weights.end",
                           "must be a finite number in [1, exploration.weights.start]"});
          })
          .integer("exploration.weights.hold", &O::hold, Range::at_least(0),
                   "a_t = start for t <= hold (synthetic 5, real-world 10)")
          .integer("exploration.weights.decay", &O::decay, Range::at_least(0),
                   "length of the linear decay (synthetic 5, real-world 30)")
          .boolean("exploration.weights.adaptive", &O::adaptive,
                   "false: a_t = start for ever (Fig. 12 non-adaptive)");
  return g;
}

}  // namespace fbosim::de

#include "algorithms/server/dp_mechanism.hpp"
#include "sim/schema/group.hpp"

namespace fbosim::server {

namespace {
/// server.w_max: the largest weight over every sub-region, or each sub-region's own.
constexpr schema::EnumNames<bool> kPerRegionNames{{false, "global"}, {true, "per_region"}};
}  // namespace

const schema::Group<DpMechanism::Options>& mechanism_keys() {
  using O = DpMechanism::Options;
  using schema::Range;
  static const auto g =
      schema::Group<O>{}
          .choice("server.sampling", &O::sampling, privacy::kSamplingNames,
                  "`poisson` (each agent with probability q) or `fixed` (exactly floor(Nq))")
          .real("server.sampling_rate", &O::sampling_rate, Range::left_open(0, 1), "q in (0, 1]")
          .real("server.noise_multiplier", &O::noise_multiplier, Range::above(0), "z > 0")
          .real("server.clip_norm", &O::clip_norm, Range::above(0),
                "S > 0; each message is clipped to S / sqrt(P)")
          .choice("server.w_max", &O::per_region_w_max, kPerRegionNames,
                  "[choice] max weight over all sub-regions (the paper's) or `per_region` (the "
                  "authors' code)");
  return g;
}

}  // namespace fbosim::server

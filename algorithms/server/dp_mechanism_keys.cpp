#include "algorithms/server/dp_mechanism.hpp"
#include "schema/group.hpp"

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
                  "authors' code)")
          .choice("server.clipping", &O::clipping, kClippingNames,
                  "[choice] `fixed`: every message clipped to S / sqrt(P); `adaptive`: Andrew et "
                  "al. (NeurIPS 2021)'s clip norm C_t, starting at S = server.clip_norm and "
                  "following the server.clip_quantile quantile of the message norms through a "
                  "noisy count of unclipped messages (noise std server.clip_count_noise), "
                  "C_{t+1} = C_t exp(-eta (b_bar - gamma)); the noise std z w_max C_t / g follows "
                  "C_t. The count is a second subsampled Gaussian (sensitivity 1) composed into "
                  "the ledger each round; server.csv gets a `clip_norm` column (C_t)")
          .real("server.clip_quantile", &O::clip_quantile, Range::open(0, 1),
                "gamma in (0, 1): the target share of unclipped messages (adaptive clipping)")
          .real("server.clip_learning_rate", &O::clip_learning_rate, Range::above(0),
                "eta > 0: the geometric step of the adaptive clip norm")
          .real("server.clip_count_noise", &O::clip_count_noise, Range::above(0),
                "sigma_b > 0: the std of the Gaussian noise on the count of unclipped messages "
                "(sensitivity 1); [choice] default 5 (Andrew et al. suggest about the expected "
                "number of selected agents / 20); smaller costs more privacy")
          // Fixed clipping reads none of Andrew et al.'s parameters.
          .applies_when(
              {"server.clip_quantile", "server.clip_learning_rate", "server.clip_count_noise"},
              "server.clipping", [](const O& o) { return o.clipping == Clipping::adaptive; },
              "server.clipping: adaptive")
          .include(trust_keys(), &O::trust);
  return g;
}

}  // namespace fbosim::server

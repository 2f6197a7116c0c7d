#include "algorithms/gp/hyper_sampler.hpp"
#include "schema/group.hpp"

namespace fbosim::gp {

const schema::Group<HyperSampler::Options>& hyper_sampler_keys() {
  using O = HyperSampler::Options;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<O>{}
          .integer("gp.samples", &O::samples, Range::closed(1, 1000000),
                   "with `gp.fit_method: sample`: kept states of the slice-sampling chain, whose "
                   "mean is used (DP-FTS-DE's code keeps 300 of 500 HMC draws) [code]")
          .integer("gp.burn_in", &O::burn_in, Range::closed(0, 1000000),
                   "with `gp.fit_method: sample`: sweeps discarded first [code]")
          .integer("gp.thin", &O::thin, Range::closed(1, 10000),
                   "with `gp.fit_method: sample`: sweeps per kept state")
          .real("gp.prior.lengthscale_shape", at(&O::lengthscale, &GammaPrior::shape),
                Range::above(0),
                "Gamma prior of each length scale, shape a (mean a / b; DP-FTS-DE's code: "
                "Gamma.from_EV(1, 10), i.e. a = b = 0.1) [code]")
          .real("gp.prior.lengthscale_rate", at(&O::lengthscale, &GammaPrior::rate),
                Range::above(0), "Gamma prior of each length scale, rate b [code]")
          .real("gp.prior.signal_var_shape", at(&O::signal_var, &GammaPrior::shape),
                Range::above(0), "Gamma prior of the signal variance, shape [code]")
          .real("gp.prior.signal_var_rate", at(&O::signal_var, &GammaPrior::rate), Range::above(0),
                "Gamma prior of the signal variance, rate [code]")
          .real("gp.prior.noise_var_shape", at(&O::noise_var, &GammaPrior::shape), Range::above(0),
                "Gamma prior of the noise variance, shape [code]")
          .real("gp.prior.noise_var_rate", at(&O::noise_var, &GammaPrior::rate), Range::above(0),
                "Gamma prior of the noise variance, rate [code]");
  return g;
}

}  // namespace fbosim::gp

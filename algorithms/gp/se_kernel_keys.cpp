#include "algorithms/gp/se_kernel.hpp"
#include "schema/group.hpp"

namespace fbosim::gp {

const schema::Group<SeHyper>& se_hyper_keys() {
  using schema::Range;
  static const auto g =
      schema::Group<SeHyper>{}
          .real("gp.lengthscale", &SeHyper::lengthscale, Range::above(0),
                "initial (or fixed) hyperparameters (the code starts from 1.0, 0.1, 1e-6); "
                "`po_gp_ucb`, `gp_ucb` with `po.variant: authors`: 0.25 x `curator.max_norm`")
          .real("gp.signal_var", &SeHyper::signal_var, Range::above(0),
                "initial (or fixed) signal variance sigma_0^2 of the SE kernel (the code starts "
                "from 0.1)")
          .real("gp.noise_var", &SeHyper::noise_var, Range::at_least(0),
                "initial (or fixed) noise variance (the code starts from 1e-6): > 0, except "
                "`po_gp_ucb`, `gp_ucb` (>= 0) and `dp_bo` with noise-free observations (0)");
  return g;
}

}  // namespace fbosim::gp

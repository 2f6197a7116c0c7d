#include "algorithms/gp/kernel.hpp"
#include "schema/group.hpp"

namespace fbosim::gp {

const schema::Group<KernelChoice>& kernel_choice_keys() {
  static const auto g =
      schema::Group<KernelChoice>{}
          .choice(
              "gp.kernel", &KernelChoice::family, kKernelFamilyNames,
              "the kernel of the agents' GP (its fits, the exact GP of `local_ts.method: "
              "exact` and of RGPE's and TAF's target) and of the random features of their "
              "steps and messages: `se` (squared exponential, the papers'), `matern32`, `matern52` "
              "(Matern-3/2, -5/2; their features' frequencies are multivariate t with 3, 5 "
              "degrees of freedom) [choice]")
          .boolean("gp.ard", &KernelChoice::ard,
                   "automatic relevance determination: the fit learns one length scale per "
                   "input dimension, each starting from `gp.lengthscale` (needs `gp.fit: true`; "
                   "the messages' features keep their fixed `rff.lengthscale` or "
                   "`rff.lengthscales`) [choice]");
  return g;
}

}  // namespace fbosim::gp

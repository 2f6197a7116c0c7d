#include "algorithms/rff/message_features.hpp"

#include <fmt/format.h>

#include "schema/group.hpp"

namespace fbosim::rff {

const schema::Group<MessageFeatures>& message_feature_keys() {
  using M = MessageFeatures;
  using schema::Range;
  static const auto g = schema::Group<M>{}
                            .integer("rff.features", &M::features, Range::closed(1, 100000),
                                     "M, shared random features of the messages")
                            .real_list("rff.lengthscales", &M::lengthscales, Range::above(0),
                                       "ARD: their length scales, one per input dimension "
                                       "(`[0.1, 0.3]`), instead of the one `rff.lengthscale`; "
                                       "each dimension's frequencies are divided by its own "
                                       "(docs/USER_GUIDE.md, Kernels)")
                            .excludes("rff.lengthscale")
                            .real("rff.lengthscale", &M::lengthscale, Range::above(0),
                                  "their length scale [choice] synthetic: the true l")
                            .when([](const M& m) { return m.lengthscales.empty(); })
                            .real("rff.lambda", &M::lambda, Range::above(0),
                                  "lambda of eq. 2 [choice] synthetic: the noise variance");
  return g;
}

void check_message_lengthscales(const std::vector<double>& lengthscales, int dimension,
                                schema::Problems& out) {
  if (lengthscales.empty() || static_cast<int>(lengthscales.size()) == dimension) return;
  out.push_back({"rff.lengthscales",
                 fmt::format("must list one length scale per input dimension ({} for this "
                             "objective; {} given)",
                             dimension, lengthscales.size())});
}

}  // namespace fbosim::rff

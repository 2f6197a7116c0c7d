#include "algorithms/rff/message_features.hpp"

#include "sim/schema/group.hpp"

namespace fbosim::rff {

const schema::Group<MessageFeatures>& message_feature_keys() {
  using M = MessageFeatures;
  using schema::Range;
  static const auto g = schema::Group<M>{}
                            .integer("rff.features", &M::features, Range::closed(1, 100000),
                                     "M, shared random features of the messages")
                            .real("rff.lengthscale", &M::lengthscale, Range::above(0),
                                  "their length scale [choice] synthetic: the true l")
                            .real("rff.lambda", &M::lambda, Range::above(0),
                                  "lambda of eq. 2 [choice] synthetic: the noise variance");
  return g;
}

}  // namespace fbosim::rff

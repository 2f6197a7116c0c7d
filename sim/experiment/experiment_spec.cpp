#include "sim/experiment/experiment_spec.hpp"

#include <cmath>

namespace fbosim::sim {

double ExperimentSpec::delta() const {
  return server.delta ? *server.delta : std::pow(static_cast<double>(agents), -1.1);
}

}  // namespace fbosim::sim

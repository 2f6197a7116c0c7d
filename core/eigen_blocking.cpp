#include "core/eigen_blocking.hpp"

#include <Eigen/Core>

namespace fbosim::core {

void pin_eigen_blocking() {
  Eigen::setCpuCacheSizes(EigenBlocking::l1, EigenBlocking::l2, EigenBlocking::l3);
}

}  // namespace fbosim::core

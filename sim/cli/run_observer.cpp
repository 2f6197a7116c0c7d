#include "sim/cli/run_observer.hpp"

namespace fbosim::cli {

std::function<void(int, int, int)> run_observer() { return {}; }

}  // namespace fbosim::cli

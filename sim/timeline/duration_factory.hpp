#pragma once
// The DurationModel that a DurationSpec names, its parameters validated by the model
// (std::invalid_argument naming timing.duration.* and the value).
#include <memory>

#include "sim/timeline/duration_model.hpp"
#include "sim/timeline/timing_spec.hpp"

namespace fbosim::timeline {

std::unique_ptr<DurationModel> make_duration_model(const DurationSpec& spec);

}  // namespace fbosim::timeline

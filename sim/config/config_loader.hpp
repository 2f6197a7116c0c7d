#pragma once
// YAML experiment config -> validated ExperimentSpec (docs/CONFIG.md lists every key).
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sim/config/config_reader.hpp"
#include "sim/config/experiment_spec.hpp"

namespace fbosim::config {

struct LoadedConfig {
  ExperimentSpec spec;
  YAML::Node resolved;  ///< every key with its effective value (config.resolved.yaml)
};

/// The text of the config file `path`; throws ConfigError naming it when it is a directory,
/// cannot be read, or holds more than kMaxConfigBytes (a pipe or device is read up to the
/// bound, so /dev/zero is refused at once).
std::string read_config_text(const std::string& path);
/// Reads `path` strictly (config_tree.hpp), applies the --set overrides in order (the last one
/// given for a key wins), validates every key and value. Throws ConfigError naming the file,
/// the line, the key and the bad value.
LoadedConfig load_config(const std::string& path, const std::vector<std::string>& overrides);
/// The same from YAML text (source names it in messages; name is the default experiment name).
LoadedConfig load_config_text(const std::string& text, const std::string& source,
                              const std::string& name, const std::vector<std::string>& overrides);

}  // namespace fbosim::config

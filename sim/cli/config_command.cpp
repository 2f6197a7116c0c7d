// fbosim config CONFIG [--set key=value]... [--runs R] [--seed S]: the resolved configuration,
// every key with the value a run would use (defaults included), without running. It is the
// text `fbosim run` writes as config.resolved.yaml.
// fbosim keys [PREFIX] [--markdown]: every config key with its default, range, the algorithms
// and families that read it, and its meaning (the key catalog; --markdown prints
// docs/CONFIG.md's tables).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/cli/commands.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/key_catalog.hpp"
#include "sim/output/provenance.hpp"

namespace fbosim::cli {

namespace {
struct ConfigArgs {
  std::string config;
  std::vector<std::string> sets;
  int runs = 0;
  long long seed = -1;
};
}  // namespace

void add_config_command(CLI::App& app) {
  auto args = std::make_shared<ConfigArgs>();
  CLI::App* cmd = app.add_subcommand(
      "config", "Print the resolved configuration (every key, defaults included) without running");
  cmd->add_option("config", args->config, "Experiment YAML (see docs/CONFIG.md)")->required();
  cmd->add_option("--set", args->sets, "Override a config key: --set server.noise_multiplier=2")
      ->type_name("KEY=VALUE");
  cmd->add_option("--runs", args->runs, "Number of runs (overrides `runs`)")
      ->check(integer_in(1, 100000));
  cmd->add_option("--seed", args->seed, "Base seed (overrides `seed`)")->check(integer_in(0));
  cmd->callback([args] {
    std::vector<std::string> overrides = args->sets;
    if (args->runs > 0) overrides.push_back(fmt::format("runs={}", args->runs));
    if (args->seed >= 0) overrides.push_back(fmt::format("seed={}", args->seed));
    const config::LoadedConfig c = config::load_config(args->config, overrides);
    std::fputs(output::resolved_config_text(c.spec, c.resolved).c_str(), stdout);
  });
}

void add_keys_command(CLI::App& app) {
  auto prefix = std::make_shared<std::string>();
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "keys",
      "List the config keys (default, range, who reads them, meaning), optionally by prefix");
  cmd->add_option("prefix", *prefix, "Only the keys starting with it, e.g. server. or rff");
  cmd->add_flag("--markdown", *markdown, "docs/CONFIG.md's tables");
  cmd->callback([prefix, markdown] {
    if (*markdown) {
      std::fputs(config::keys_markdown().c_str(), stdout);
      return;
    }
    const std::string text = config::keys_text(*prefix);
    if (text.empty())
      throw CLI::ValidationError("prefix", "no config key starts with '" + *prefix + "'");
    std::fputs(text.c_str(), stdout);
  });
}

}  // namespace fbosim::cli

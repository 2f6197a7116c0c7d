// fbosim config CONFIG [--set key=value]... [--runs R] [--seed S]: the resolved configuration,
// every key with the value a run would use (defaults included), without running. It is the
// text `fbosim run` writes as config.resolved.yaml. With --resources it prints the experiment's
// resource estimate instead (sim/config/resource_estimate.hpp): the memory to ask a batch
// scheduler for and the upper estimate of its time (docs/SWEEPS.md, "What a cluster needs").
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
#include "sim/config/resource_estimate.hpp"
#include "sim/output/provenance.hpp"

namespace fbosim::cli {

namespace {
struct ConfigArgs {
  std::string config;
  std::vector<std::string> sets;
  int runs = 0;
  long long seed = -1;
  bool resources = false;
  int threads = 1;
};

constexpr double kMiB = 1 << 20;

// The estimate of sim/config/resource_estimate.hpp, as `fbosim config --resources` prints it.
std::string resources_text(const config::ExperimentSpec& spec, int threads) {
  const config::ResourceEstimate e = config::estimate_resources(spec);
  const config::MemoryLimit& limit = config::memory_limit();
  std::string out = fmt::format(
      "memory: {:.1f} MiB (estimate of the large arrays held at once; the largest: {})\n",
      e.bytes() / kMiB, config::ResourceEstimate::largest(e.memory).what);
  out += fmt::format("work: {:.3g} floating-point operations (the largest part: {})\n", e.flops(),
                     config::ResourceEstimate::largest(e.work).what);
  out += fmt::format(
      "time: up to about {} on {} thread(s) (an upper estimate: {:.2g} operations per "
      "core-second)\n",
      config::duration_text(config::estimated_seconds(e, threads)), threads,
      config::kFlopsPerCoreSecond);
  out += fmt::format("this process may use: {:.1f} GiB ({})\n", limit.bytes / (1024 * kMiB),
                     limit.what);
  return out;
}
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
  cmd->add_flag("--resources", args->resources,
                "Print the estimated memory, work and time instead (what to ask a batch "
                "scheduler for)");
  cmd->add_option("--threads", args->threads, "Threads the time is estimated for (--resources)")
      ->check(integer_in(1, 4096));
  cmd->callback([args] {
    std::vector<std::string> overrides = args->sets;
    if (args->runs > 0) overrides.push_back(fmt::format("runs={}", args->runs));
    if (args->seed >= 0) overrides.push_back(fmt::format("seed={}", args->seed));
    const config::LoadedConfig c = config::load_config(args->config, overrides);
    if (args->resources) {
      std::fputs(resources_text(c.spec, args->threads).c_str(), stdout);
      return;
    }
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

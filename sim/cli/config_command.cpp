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

void run(const ConfigArgs& a) {
  std::vector<std::string> overrides = a.sets;
  if (a.runs > 0) overrides.push_back(fmt::format("runs={}", a.runs));
  if (a.seed >= 0) overrides.push_back(fmt::format("seed={}", a.seed));
  const config::LoadedConfig c = config::load_config(a.config, overrides);
  if (a.resources) {
    std::fputs(resources_text(c.spec, a.threads).c_str(), stdout);
    return;
  }
  std::fputs(output::resolved_config_text(c.spec, c.resolved).c_str(), stdout);
}

void run(const KeysArgs& a) {
  if (a.markdown) {
    std::fputs(config::keys_markdown().c_str(), stdout);
    return;
  }
  const std::string text = config::keys_text(a.prefix);
  if (text.empty()) throw UsageError("no config key starts with '" + a.prefix + "'", "prefix");
  std::fputs(text.c_str(), stdout);
}

}  // namespace fbosim::cli

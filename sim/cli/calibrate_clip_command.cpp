// fbosim calibrate-clip CONFIG [--set key=value]... [--quantile G] [--rounds K] [--runs R]
//                      [--threads T]: a short pilot of the config without DP
// (sim/run/clip_pilot.hpp), the quantiles of the norms of the messages its server received, and
// the clip norm S that leaves a share G of them unclipped (issue 39: S = 11 is the synthetic
// paper's, not the user's objective's). It writes nothing: the S printed is for the config's
// server.clip_norm.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "algorithms/systems/fts_de_system.hpp"
#include "core/thread_pool.hpp"
#include "sim/cli/commands.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/user_program.hpp"
#include "sim/run/clip_pilot.hpp"

namespace fbosim::cli {

namespace {

// x rounded up to 3 significant digits: the S printed clips no more than the S computed.
double round_up_3(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x;
  const double unit = std::pow(10.0, std::floor(std::log10(x)) - 2);
  return std::ceil(x / unit) * unit;
}

std::string percent(double gamma) { return fmt::format("{:g}%", 100 * gamma); }

}  // namespace

std::string calibrate_clip_text(const CalibrateClipArgs& a) {
  if (!(a.quantile > 0 && a.quantile <= 1))
    throw UsageError(fmt::format("must be in (0, 1], got {}", a.quantile), "--quantile");
  const config::LoadedConfig cfg = config::load_config(a.config, a.sets);
  const config::ExperimentSpec& spec = cfg.spec;
  const systems::FtsDeConfig* fts = systems::fts_de_config(spec.system.get());
  if (!fts || !fts->server || !fts->dp)
    throw std::invalid_argument(fmt::format(
        "{}: algorithm {} clips nothing: the clip norm server.clip_norm is the private server's "
        "of the DP-FTS-DE family (algorithm dp_fts or dp_fts_de)",
        a.config, spec.algorithm));
  // The pilot evaluates the objective: a program or module named by the file needs consent.
  if (const auto program = config::objective_program(spec, a.sets))
    config::check_user_programs({*program}, a.config, a.allow_exec);
  const int rounds = a.rounds > 0 ? a.rounds : std::min(spec.rounds, 10);
  const int threads = a.threads > 0 ? a.threads : core::ThreadPool::hardware_threads();
  const run::ClipPilot pilot = run::run_clip_pilot(spec, rounds, a.runs, threads);
  if (pilot.norms.empty())
    throw std::invalid_argument(fmt::format(
        "{}: the pilot's server received no message in {} round(s) (network.dropout?): nothing "
        "to calibrate on; give more --rounds",
        a.config, rounds));
  const double root_p = std::sqrt(static_cast<double>(pilot.regions));
  std::string quantiles;
  for (const double g : {0.5, 0.75, 0.9, 0.95, 0.99})
    quantiles += fmt::format(", {} {:.4g}", percent(g), run::unclipped_quantile(pilot.norms, g));
  const double lowest = *std::min_element(pilot.norms.begin(), pilot.norms.end());
  const double s = round_up_3(root_p * run::unclipped_quantile(pilot.norms, a.quantile));
  const double current = fts->mechanism.clip_norm;
  std::string out = fmt::format(
      "{}: a pilot without DP (no subsampling, clipping or noise) of {} run(s) x {} agents x {} "
      "round(s): {} messages reached the server\n"
      "  message norms |omega_n|: min {:.4g}{}, max {:.4g}\n"
      "  each message is clipped to S / sqrt(P) with P = {} sub-region(s):\n"
      "    server.clip_norm {:.6g} leaves {} of the pilot's messages unclipped (--quantile {:g}; "
      "it clips {:.1f}%)\n"
      "    the config's server.clip_norm {:.6g} clips {:.1f}% of them\n",
      a.config, a.runs, spec.agents, rounds, pilot.norms.size(), lowest, quantiles,
      run::unclipped_quantile(pilot.norms, 1.0), pilot.regions, s, percent(a.quantile), a.quantile,
      100 * run::clipped_fraction(pilot.norms, s / root_p), current,
      100 * run::clipped_fraction(pilot.norms, current / root_p));
  out += fmt::format(
      "  use it with: fbosim run {} --set server.clip_norm={:.6g}\n"
      "  a larger S clips less but adds more noise (its std is z w_max S / q). The pilot read the "
      "objective without privacy: an S chosen from private data is not itself differentially "
      "private; calibrate on public or proxy data, or set server.clipping: adaptive (Andrew et "
      "al. 2021), which follows a quantile of the norms and accounts for it\n",
      a.config, s);
  return out;
}

void run(const CalibrateClipArgs& a) { std::fputs(calibrate_clip_text(a).c_str(), stdout); }

}  // namespace fbosim::cli

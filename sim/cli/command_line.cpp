// The command line (CLI11): every subcommand's options, the parse and the usage errors. The
// only file that includes CLI/CLI.hpp: CLI11 2.1 is header-only and costs about 9 CPU-seconds
// (-O3) in each file that includes it; the commands' own code is in <command>_command.cpp.
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "core/eigen_blocking.hpp"
#include "schema/suggest.hpp"
#include "sim/cli/commands.hpp"
#include "sim/output/build_info.hpp"

namespace fbosim::cli {

namespace {
/// An integer option in [lo, hi]: the message prints the bounds short (CLI11's PositiveNumber
/// prints the largest double in 300 digits).
CLI::Validator integer_in(long long lo, long long hi = std::numeric_limits<long long>::max()) {
  const std::string range = hi == std::numeric_limits<long long>::max()
                                ? ">= " + std::to_string(lo)
                                : "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& s) {
        long long v = 0;
        std::size_t used = 0;
        try {
          v = std::stoll(s, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != s.size() || v < lo || v > hi)
          return "must be an integer " + range + ", got '" + s.substr(0, 40) + "'";
        return std::string();
      },
      "INT");
}

/// Rejects an empty value (`--out ''` would otherwise mean the default directory).
CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("must not be empty") : std::string(); },
      "NONEMPTY");
}

/// A command's callback with its usage errors (UsageError) reported as CLI11's: exit status 2
/// and the message "OPTION: WHAT".
std::function<void()> guarded(std::function<void()> run) {
  return [run = std::move(run)] {
    try {
      run();
    } catch (const UsageError& e) {
      if (e.option().empty()) throw CLI::ValidationError(e.what());
      throw CLI::ValidationError(e.option(), e.what());
    }
  };
}

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Run an experiment config and write its CSV traces");
  cmd->add_option("config", args->config, "Experiment YAML (see docs/CONFIG.md)")->required();
  cmd->add_option("--set", args->sets, "Override a config key: --set server.noise_multiplier=2")
      ->type_name("KEY=VALUE");
  cmd->add_option("--runs", args->runs, "Number of runs (overrides `runs`)")
      ->check(integer_in(1, 100000));
  cmd->add_option("--seed", args->seed, "Base seed (overrides `seed`)")->check(integer_in(0));
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--out", args->out, "Output directory (default: results/<name>)")
      ->check(non_empty());
  cmd->add_option("--accountants", args->accountants,
                  "Extra epsilon columns epsilon_<name> (overrides `server.accountants`), "
                  "e.g. rdp,pld")
      ->type_name("A,B,...");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress line and no summary");
  cmd->add_flag("--force", args->force,
                "Replace the results of a different config in the output directory");
  cmd->add_flag("--allow-exec", args->allow_exec,
                "Let the config file run its objective's program or import its Python module "
                "(objective.family command or python; also FBOSIM_ALLOW_EXEC=1): a config is "
                "code, docs/USER_GUIDE.md");
  cmd->callback(guarded([args] { run(*args); }));
}

void add_privacy_command(CLI::App& app) {
  auto args = std::make_shared<PrivacyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "privacy",
      "Privacy loss epsilon of T rounds of the subsampled Gaussian mechanism, or the noise "
      "multiplier that reaches a target epsilon; or, given a CONFIG, the epsilon its runs "
      "report");
  cmd->add_option("config", args->config,
                  "Experiment YAML: print the privacy loss its runs report (every release, "
                  "the stop rules), without running; takes no mechanism option");
  cmd->add_option("--set", args->sets, "Override a config key (with CONFIG)")
      ->type_name("KEY=VALUE");
  auto* q = cmd->add_option("--q", args->q, "Sampling rate q in (0, 1]");
  auto* z = cmd->add_option("--z", args->z, "Noise multiplier z > 0 (prints epsilon)");
  auto* target = cmd->add_option("--target-epsilon", args->target,
                                 "Target epsilon (prints the smallest z that reaches it)");
  z->excludes(target);
  target->excludes(z);
  auto* steps =
      cmd->add_option("--steps", args->steps,
                      "Rounds T (the initial round is not counted); a list T1,T2,... or a range "
                      "FIRST:LAST[:STRIDE] prints one line or CSV row per count");
  auto* agents = cmd->add_option("--agents", args->agents,
                                 "N: delta = min(1e-5, 1/(10 N)) unless --delta (N^-1.1 with "
                                 "--delta-rule paper), as a run's; the population of "
                                 "fixed-size sampling")
                     ->check(integer_in(1));
  auto* delta = cmd->add_option("--delta", args->delta, "delta in (0, 1)");
  auto* delta_rule =
      cmd->add_option("--delta-rule", args->delta_rule,
                      "delta from --agents N: default (min(1e-5, 1/(10 N)), a run's default) or "
                      "paper (N^-1.1, server.delta_rule: paper)")
          ->check(CLI::IsMember({"default", "paper"}))
          ->default_str("default");
  auto* accountant = cmd->add_option("--accountant", args->accountant,
                                     "moments (default, the paper's), rdp, pld (tightest "
                                     "bound), gdp (approximation)")
                         ->check(CLI::IsMember(privacy::accountant_names()))
                         ->default_str("moments");
  auto* sampling = cmd->add_option("--sampling", args->sampling, "poisson or fixed")
                       ->check(CLI::IsMember({"poisson", "fixed"}))
                       ->default_str("poisson");
  auto* count_noise = cmd->add_option(
      "--count-noise", args->count_noise,
      "sigma_b > 0: adaptive clipping's count release composed in each round, as a run with "
      "server.clipping: adaptive composes it");
  cmd->add_option("--format", args->format, "text or csv")
      ->check(CLI::IsMember({"text", "csv"}))
      ->default_str("text");
  cmd->callback(guarded([args, agents, delta, delta_rule, z, target, q, steps, accountant, sampling,
                         count_noise] {
    if (!args->config.empty()) {
      for (const CLI::Option* o :
           {q, z, target, steps, agents, delta, delta_rule, accountant, sampling, count_noise})
        if (o->count() > 0)
          throw CLI::ValidationError(o->get_name(),
                                     "takes no value with CONFIG (the config's keys set the "
                                     "releases; use --set)");
      return run_config(*args);
    }
    if (!args->sets.empty()) throw CLI::ValidationError("--set", "needs CONFIG");
    if (q->count() == 0) throw CLI::ValidationError("--q", "give --q Q, or CONFIG");
    if (steps->count() == 0) throw CLI::ValidationError("--steps", "give --steps T, or CONFIG");
    if (agents->count() == 0 && delta->count() == 0)
      throw CLI::ValidationError("--agents/--delta",
                                 "give --agents N (delta = min(1e-5, 1/(10 N)), or N^-1.1 with "
                                 "--delta-rule paper) or --delta D");
    if (delta_rule->count() > 0 && delta->count() > 0)
      throw CLI::ValidationError("--delta-rule", "sets the delta --delta gives; give one");
    if (z->count() == 0 && target->count() == 0)
      throw CLI::ValidationError("--z/--target-epsilon",
                                 "give --z Z (prints epsilon) or --target-epsilon E (prints z)");
    args->count_noise_given = count_noise->count() > 0;
    run(*args, target->count() > 0, delta->count() > 0);
  }));
}

void add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Time the simulator: agent-iterations per second (median of --repeats runs); with "
      "--callgrind also instructions per agent-iteration");
  cmd->add_option("--case", args->which, "synthetic, synthetic20, box2d, landmine or all")
      ->check(CLI::IsMember(bench_case_names()));
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--repeats", args->repeats, "Runs per case (median reported)")
      ->check(integer_in(1, 1000));
  cmd->add_option("--set", args->sets,
                  "Override a key of every case's config: --set rounds=240, "
                  "--set local_ts.features=400");
  cmd->add_flag("--callgrind", args->callgrind,
                "Also count instructions per agent-iteration: one more run of each case under "
                "valgrind --tool=callgrind (slow: about 50x)");
  cmd->add_option("--callgrind-child", args->callgrind_child)->group("");  // internal
  cmd->callback(guarded([args] { run(*args); }));
}

void add_audit_command(CLI::App& app) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* cmd = app.add_subcommand(
      "audit",
      "Empirical lower bound on epsilon of each private release of a config (DP-FTS-DE's server, "
      "PO-GP-UCB's curator, dp_bo's final release: one release of each kind), next to the "
      "claimed upper bound; exits 3 on a violation");
  cmd->add_option("config", args->config, "Experiment YAML")->required();
  cmd->add_option("--set", args->sets, "Override a config key")->type_name("KEY=VALUE");
  cmd->add_option("--trials", args->options.trials, "Trials per input (default 100000)");
  cmd->add_option("--seed", args->seed, "Seed of the audit's streams");
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--confidence", args->options.confidence,
                  "Confidence of the Clopper-Pearson bounds (default 0.95)");
  cmd->add_option("--noise-scale", args->options.noise_scale,
                  "Scale the audited mechanism's noise (e.g. 0.5: a broken mechanism, to check "
                  "that the audit catches it)");
  cmd->add_option("--format", args->format, "text or csv")
      ->check(CLI::IsMember({"text", "csv"}))
      ->default_str("text");
  cmd->add_flag("--allow-exec", args->allow_exec,
                "Let the config file run its objective's program or import its Python module "
                "(objective.family command or python; also FBOSIM_ALLOW_EXEC=1): a config is "
                "code, docs/USER_GUIDE.md");
  cmd->callback(guarded([args] {
    const int status = run(*args);
    if (status != 0) throw CLI::RuntimeError(status);
  }));
}

void add_sweep_command(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a grid of configs (cartesian product), one run directory per point");
  cmd->add_option("config", args->config, "Experiment YAML (its `sweep:` section adds grids)")
      ->required();
  cmd->add_option("--grid", args->grids,
                  "Sweep a key: --grid server.noise_multiplier=1,2 (replaces the YAML grid)")
      ->type_name("KEY=V1,V2,...");
  cmd->add_option("--set", args->sets, "Override a config key at every point")
      ->type_name("KEY=VALUE");
  cmd->add_option("--runs", args->runs, "Runs per point (overrides `runs`)")
      ->check(integer_in(1, 100000));
  cmd->add_option("--seed", args->seed, "Base seed of every point (overrides `seed`)")
      ->check(integer_in(0));
  cmd->add_option("--jobs", args->jobs, "Points run at once (default: cores / threads)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--threads", args->threads, "Threads per point (default: cores / jobs)")
      ->check(integer_in(1, kMaxThreads));
  cmd->add_option("--shard", args->shard,
                  "Run only slice I of K (1-based): the points with index mod K = I - 1")
      ->type_name("I/K");
  cmd->add_option("--out", args->out, "Sweep directory (default: results/<name>_sweep)")
      ->check(non_empty());
  cmd->add_option("--accountants", args->accountants,
                  "Extra epsilon columns epsilon_<name> at every point (overrides "
                  "`server.accountants`), e.g. rdp,pld")
      ->type_name("A,B,...");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress on stderr and no summary");
  cmd->add_flag("--force", args->force,
                "Replace points whose directory holds the results of a different config, and "
                "a sweep of other keys in DIR");
  cmd->add_flag("--allow-exec", args->allow_exec,
                "Let the config file run its objective's program or import its Python module "
                "(objective.family command or python; also FBOSIM_ALLOW_EXEC=1): a config is "
                "code, docs/USER_GUIDE.md");
  cmd->callback(guarded([args] { run(*args); }));
}

void add_merge_command(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand("merge", "Gather the sweep.csv of sweep shards into one");
  cmd->add_option("dirs", args->dirs, "Shard directories (each with sweep_plan.csv)")->required();
  cmd->add_option("--out", args->out, "Output directory")->required();
  cmd->add_flag("--allow-missing", args->allow_missing,
                "Exit 0 even when some points of the plan are in no shard");
  cmd->add_flag("--force", args->force,
                "Replace the sweep.csv of another sweep in the output directory");
  cmd->callback(guarded([args] { run(*args); }));
}

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
  cmd->callback(guarded([args] { run(*args); }));
}

void add_calibrate_clip_command(CLI::App& app) {
  auto args = std::make_shared<CalibrateClipArgs>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate-clip",
      "Choose the clip norm server.clip_norm for a config's objective from a short pilot "
      "without DP (the message norms' quantiles); writes nothing");
  cmd->add_option("config", args->config, "Experiment YAML (dp_fts or dp_fts_de)")->required();
  cmd->add_option("--set", args->sets, "Override a config key: --set agents.count=20")
      ->type_name("KEY=VALUE");
  cmd->add_option("--quantile", args->quantile,
                  "The share of the pilot's messages the clip norm leaves unclipped (default "
                  "0.95)");
  cmd->add_option("--rounds", args->rounds,
                  "The pilot's rounds (default: the config's, at most 10)")
      ->check(integer_in(1, 100000));
  cmd->add_option("--runs", args->runs, "The pilot's runs (default 1)")
      ->check(integer_in(1, 100000));
  cmd->add_flag("--allow-exec", args->allow_exec,
                "Let the config file run its objective's program or import its Python module "
                "for the pilot (objective.family command or python; also FBOSIM_ALLOW_EXEC=1): "
                "a config is code, docs/USER_GUIDE.md");
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(integer_in(1, kMaxThreads));
  cmd->callback(guarded([args] { run(*args); }));
}

void add_keys_command(CLI::App& app) {
  auto args = std::make_shared<KeysArgs>();
  CLI::App* cmd = app.add_subcommand(
      "keys",
      "List the config keys (default, range, who reads them, meaning), optionally by prefix");
  cmd->add_option("prefix", args->prefix, "Only the keys starting with it, e.g. server. or rff");
  cmd->add_flag("--markdown", args->markdown, "docs/CONFIG.md's tables");
  cmd->callback(guarded([args] { run(*args); }));
}

// Hydra's habit, `fbosim run CONFIG key=value`: CLI11 refuses the extra word; say that an
// override is written `--set key=value` (for a command that takes --set), with the words given.
std::string bare_override_hint(const CLI::App& sub, int argc, char** argv,
                               const std::string& what) {
  if (what.find("not expected") == std::string::npos || !sub.get_option_no_throw("--set"))
    return "";
  std::string bare, fixed = "fbosim " + sub.get_name();
  for (int k = 2; k < argc; ++k) {
    const std::string arg = argv[k];  // one CLI11 lists as not expected, not an option's value
    const CLI::Option* before =
        argv[k - 1][0] == '-' ? sub.get_option_no_throw(argv[k - 1]) : nullptr;
    const bool is_bare = !arg.empty() && arg[0] != '-' && arg.find('=') != std::string::npos &&
                         what.find(arg) != std::string::npos &&
                         (before == nullptr || before->get_type_size() == 0);
    if (is_bare) bare += (bare.empty() ? "'" : ", '") + arg + "'";
    fixed += (is_bare ? " --set " : " ") + arg;
  }
  if (bare.empty()) return "";
  return "unexpected argument " + bare + ": override a config key with --set KEY=VALUE: " + fixed;
}

// The message of a usage error: CLI11's, or for an unknown command one naming it, each with
// the closest command or option when one is close.
std::string usage_message(const CLI::App& app, int argc, char** argv, const std::string& what) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  if (argc < 2 || argv[1][0] == '-') return what;
  const std::string command = argv[1];
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands({}))
    if (s->get_name() == command) sub = s;
  if (!sub) {
    std::string list;
    for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
    return "unknown command '" + command + "'" + schema::did_you_mean(command, commands) +
           "; the commands: " + list;
  }
  if (const std::string hint = bare_override_hint(*sub, argc, argv, what); !hint.empty())
    return hint;
  std::vector<std::string> options;
  for (const CLI::Option* o : sub->get_options())
    for (const std::string& n : o->get_lnames()) options.push_back("--" + n);
  for (int k = 2; k < argc; ++k) {
    const std::string arg = std::string(argv[k]).substr(0, std::string(argv[k]).find('='));
    if (arg.rfind("--", 0) != 0) continue;
    bool known = false;
    for (const std::string& o : options) known = known || o == arg;
    if (!known) return what + schema::did_you_mean(arg, options);
  }
  return what;
}

}  // namespace

int run_command_line(int argc, char** argv) {
  core::pin_eigen_blocking();  // the same bytes on every machine
  CLI::App app{output::version_line() +
               ": simulator of differentially private federated Bayesian optimisation "
               "(DP-FTS-DE and its baselines)"};
  // The commit and whether the tree was modified, from the build (cmake/build_info.cmake).
  app.set_version_flag("--version", output::version_line());
  app.require_subcommand(1);
  add_run_command(app);
  add_privacy_command(app);
  add_bench_command(app);
  add_audit_command(app);
  add_sweep_command(app);
  add_merge_command(app);
  add_config_command(app);
  add_keys_command(app);
  add_calibrate_clip_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {  // a command's own exit status (audit: 3)
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Usage errors: the same prefix as every other error, and exit status 2 (as getopt tools).
    std::fprintf(stderr, "fbosim: error: %s\nRun 'fbosim --help' or 'fbosim COMMAND --help'.\n",
                 usage_message(app, argc, argv, e.what()).c_str());
    return 2;
  }
  return 0;
}

}  // namespace fbosim::cli

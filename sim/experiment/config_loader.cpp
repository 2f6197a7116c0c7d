#include "sim/experiment/config_loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/privacy/accountant.hpp"

namespace fbosim::sim {

namespace {

// "a, b,c" -> {"a", "b", "c"} (empty items dropped, duplicates kept once, order kept).
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto b = item.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    item = item.substr(b, item.find_last_not_of(" \t") - b + 1);
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  }
  return out;
}

void read_synthetic(ConfigReader& r, datasets::SyntheticSpec& o) {
  o.grid_points = r.get<int>("objective.grid_points", o.grid_points);
  r.require(o.grid_points >= 2, "objective.grid_points", "must be >= 2");
  o.lengthscale = r.get<double>("objective.lengthscale", o.lengthscale);
  r.require(o.lengthscale > 0, "objective.lengthscale", "must be > 0");
  o.perturbation = r.get<double>("objective.perturbation", o.perturbation);
  r.require(o.perturbation >= 0, "objective.perturbation", "must be >= 0");
  o.noise_var = r.get<double>("objective.noise_var", o.noise_var);
  r.require(o.noise_var >= 0, "objective.noise_var", "must be >= 0");
  o.alpha = r.get<double>("objective.alpha", o.alpha);
  r.require(o.alpha >= 0 && o.alpha <= 1, "objective.alpha", "must be in [0, 1]");
  o.dim = r.get<int>("objective.dim", o.dim);
  r.require(o.dim >= 1, "objective.dim", "must be >= 1");
}

// datasets.root: $FBOSIM_DATA when set, else "data"; the YAML and --set override both.
void read_objective(ConfigReader& r, datasets::ObjectiveSpec& o) {
  o.family = r.get_choice("objective.family", o.family,
                          {"gp_grid", "heterogeneous", "gp_box", "landmine", "activity", "emnist"});
  const char* env = std::getenv("FBOSIM_DATA");
  o.data_root = r.get<std::string>("datasets.root", env && *env ? env : o.data_root);
  r.require(!o.data_root.empty(), "datasets.root", "must not be empty");
  if (!datasets::is_real_world(o.family)) read_synthetic(r, o.synthetic);
  if (o.family == "landmine") {
    auto& l = o.landmine;
    l.split_seed = r.get<std::uint64_t>("objective.split_seed", l.split_seed);
    l.cv_folds = r.get<int>("objective.cv_folds", l.cv_folds);
    r.require(l.cv_folds >= 2 && l.cv_folds <= 20, "objective.cv_folds", "must be in [2, 20]");
  }
  if (o.family == "emnist") {
    auto& c = o.emnist.cnn;
    c.conv1 = r.get<int>("objective.conv1", c.conv1);
    c.conv2 = r.get<int>("objective.conv2", c.conv2);
    c.hidden = r.get<int>("objective.hidden", c.hidden);
    c.epochs = r.get<int>("objective.epochs", c.epochs);
    c.batch = r.get<int>("objective.batch_size", c.batch);
    const std::pair<const char*, int> sizes[] = {{"objective.conv1", c.conv1},
                                                 {"objective.conv2", c.conv2},
                                                 {"objective.hidden", c.hidden},
                                                 {"objective.epochs", c.epochs},
                                                 {"objective.batch_size", c.batch}};
    for (const auto& [key, value] : sizes) r.require(value >= 1, key, "must be >= 1");
  }
  if (o.family == "activity") {
    auto& a = o.activity;
    a.split_seed = r.get<std::uint64_t>("objective.split_seed", a.split_seed);
    a.epochs = r.get<int>("objective.epochs", a.epochs);
    r.require(a.epochs >= 1 && a.epochs <= 100000, "objective.epochs", "must be in [1, 100000]");
  }
}

void read_exploration(ConfigReader& r, ExperimentSpec& s) {
  s.subregions = r.get<int>("exploration.subregions", s.subregions);
  r.require(s.subregions >= 1, "exploration.subregions", "must be >= 1");
  s.agent.schedule = agents::parse_exploration_schedule(r.get_choice(
      "exploration.schedule", to_string(s.agent.schedule), {"inv_sqrt", "inv", "inv_square"}));
  auto& w = s.weights;
  w.scheme = de::parse_weight_scheme(r.get_choice("exploration.weights.scheme", to_string(w.scheme),
                                                  {"softmax", "linear", "quadratic", "equal"}));
  w.start = r.get<double>("exploration.weights.start", w.start);
  r.require(std::isfinite(w.start) && w.start >= 1, "exploration.weights.start",
            "must be a finite number >= 1");
  w.end = r.get<double>("exploration.weights.end", w.end);
  r.require(std::isfinite(w.end) && w.end >= 1 && w.end <= w.start, "exploration.weights.end",
            "must be a finite number in [1, exploration.weights.start]");
  w.hold = r.get<int>("exploration.weights.hold", w.hold);
  r.require(w.hold >= 0, "exploration.weights.hold", "must be >= 0");
  w.decay = r.get<int>("exploration.weights.decay", w.decay);
  r.require(w.decay >= 0, "exploration.weights.decay", "must be >= 0");
  w.adaptive = r.get<bool>("exploration.weights.adaptive", w.adaptive);
}

void read_models(ConfigReader& r, ExperimentSpec& s) {
  auto& a = s.agent;
  s.features = r.get<int>("rff.features", s.features);
  r.require(s.features >= 1, "rff.features", "must be >= 1");
  s.rff_lengthscale = r.get<double>("rff.lengthscale", s.rff_lengthscale);
  r.require(s.rff_lengthscale > 0, "rff.lengthscale", "must be > 0");
  a.message_lambda = r.get<double>("rff.lambda", a.message_lambda);
  r.require(a.message_lambda > 0, "rff.lambda", "must be > 0");
  a.local_features = r.get<int>("local_ts.features", a.local_features);
  r.require(a.local_features >= 1, "local_ts.features", "must be >= 1");
  a.local_noise_floor = r.get<double>("local_ts.noise_floor", a.local_noise_floor);
  r.require(a.local_noise_floor >= 0, "local_ts.noise_floor", "must be >= 0");
  a.fit_hyper = r.get<bool>("gp.fit", a.fit_hyper);
  a.hyper.lengthscale = r.get<double>("gp.lengthscale", a.hyper.lengthscale);
  r.require(a.hyper.lengthscale > 0, "gp.lengthscale", "must be > 0");
  a.hyper.signal_var = r.get<double>("gp.signal_var", a.hyper.signal_var);
  r.require(a.hyper.signal_var > 0, "gp.signal_var", "must be > 0");
  a.hyper.noise_var = r.get<double>("gp.noise_var", a.hyper.noise_var);
  r.require(a.hyper.noise_var > 0, "gp.noise_var", "must be > 0");
  a.fit.restarts = r.get<int>("gp.restarts", a.fit.restarts);
  r.require(a.fit.restarts >= 0, "gp.restarts", "must be >= 0");
  a.refit_every = r.get<int>("gp.refit_every", a.refit_every);
  r.require(a.refit_every >= 1, "gp.refit_every", "must be >= 1");
  a.fit.max_iterations = r.get<int>("gp.max_iterations", a.fit.max_iterations);
  r.require(a.fit.max_iterations >= 1, "gp.max_iterations", "must be >= 1");
  a.maximiser.random_points = r.get<int>("acquisition.random_points", a.maximiser.random_points);
  r.require(a.maximiser.random_points >= 1, "acquisition.random_points", "must be >= 1");
  a.maximiser.starts = r.get<int>("acquisition.starts", a.maximiser.starts);
  r.require(a.maximiser.starts >= 0, "acquisition.starts", "must be >= 0");
  a.maximiser.max_iterations = r.get<int>("acquisition.max_iterations", a.maximiser.max_iterations);
  r.require(a.maximiser.max_iterations >= 1, "acquisition.max_iterations", "must be >= 1");
}

void read_server(ConfigReader& r, ExperimentSpec& s) {
  auto& sv = s.server;
  auto& m = sv.mechanism;
  sv.dp = r.get<bool>("server.dp", sv.dp);
  m.sampling = privacy::parse_sampling(
      r.get_choice("server.sampling", privacy::to_string(m.sampling), {"poisson", "fixed"}));
  m.sampling_rate = r.get<double>("server.sampling_rate", m.sampling_rate);
  r.require(m.sampling_rate > 0 && m.sampling_rate <= 1, "server.sampling_rate",
            "must be in (0, 1]");
  m.noise_multiplier = r.get<double>("server.noise_multiplier", m.noise_multiplier);
  r.require(m.noise_multiplier > 0, "server.noise_multiplier", "must be > 0");
  m.clip_norm = r.get<double>("server.clip_norm", m.clip_norm);
  r.require(m.clip_norm > 0, "server.clip_norm", "must be > 0");
  m.per_region_w_max =
      r.get_choice("server.w_max", "global", {"global", "per_region"}) == "per_region";
  sv.delta = r.get_optional<double>("server.delta");
  if (sv.delta) r.require(*sv.delta > 0 && *sv.delta < 1, "server.delta", "must be in (0, 1)");
  const std::vector<std::string>& names = privacy::accountant_names();
  sv.accountant = r.get_choice("server.accountant", sv.accountant, names);
  sv.accountants = split_list(r.get<std::string>("server.accountants", ""));
  for (const std::string& a : sv.accountants)
    r.require(std::find(names.begin(), names.end(), a) != names.end(), "server.accountants",
              fmt::format("unknown accountant '{}' (choose from {})", a, fmt::join(names, ", ")));
  if (!sv.dp) return;
  // Every accountant must be able to account for this config's releases (e.g. the moments
  // accountant refuses fixed-size sampling): fail now rather than after the first round.
  std::vector<std::string> all = sv.accountants;
  all.insert(all.begin(), sv.accountant);
  for (const std::string& a : all) {
    try {
      privacy::make_accountant(a)->compose(
          {m.sampling_rate, m.noise_multiplier, m.sampling, s.agents});
    } catch (const std::invalid_argument& e) {
      r.require(false, a == sv.accountant ? "server.accountant" : "server.accountants",
                fmt::format("accountant '{}' cannot account for this release ({})", a, e.what()));
    }
  }
}

void read_network(ConfigReader& r, NetworkSpec& n) {
  auto& l = n.latency;
  l.distribution = r.get_choice("network.latency.distribution", l.distribution,
                                {"constant", "uniform", "exponential"});
  l.mean = r.get<double>("network.latency.mean", l.mean);
  r.require(l.mean >= 0, "network.latency.mean", "must be >= 0");
  l.min = r.get<double>("network.latency.min", l.min);
  r.require(l.min >= 0, "network.latency.min", "must be >= 0");
  l.max = r.get<double>("network.latency.max", l.max);
  r.require(l.max >= l.min, "network.latency.max", "must be >= network.latency.min");
  n.deadline = r.get<std::int64_t>("network.deadline", n.deadline);
  r.require(n.deadline >= 0, "network.deadline", "must be >= 0 (0: wait for every agent)");
  n.dropout = r.get<double>("network.dropout", n.dropout);
  r.require(n.dropout >= 0 && n.dropout < 1, "network.dropout", "must be in [0, 1)");
}

ExperimentSpec read_spec(ConfigReader& r, const std::string& default_name) {
  ExperimentSpec s;
  s.name = r.get<std::string>("name", default_name);
  r.require(!s.name.empty() && s.name.find('/') == std::string::npos, "name",
            "must be a non-empty name without '/'");
  s.algorithm = r.get_choice("algorithm", "fts_de", {"ts", "fts_de"}) == "ts" ? Algorithm::ts
                                                                              : Algorithm::fts_de;
  s.rounds = r.get<int>("rounds", s.rounds);
  r.require(s.rounds >= 1, "rounds", "must be >= 1");
  s.runs = r.get<int>("runs", s.runs);
  r.require(s.runs >= 1, "runs", "must be >= 1");
  s.seed = r.get<std::uint64_t>("seed", s.seed);
  read_objective(r, s.objective);
  s.agents = r.get<int>("agents.count", s.agents);
  r.require(s.agents >= 1, "agents.count", "must be >= 1");
  s.agent.init_points = r.get<int>("agents.init_points", s.agent.init_points);
  r.require(s.agent.init_points >= 1, "agents.init_points", "must be >= 1");
  s.agent.init_in_region = r.get_choice("agents.init", "region", {"region", "domain"}) == "region";
  read_exploration(r, s);
  read_models(r, s);
  read_server(r, s);
  read_network(r, s.network);
  if (s.algorithm == Algorithm::ts) s.agent.schedule = agents::ExplorationSchedule::local;
  r.reject_unknown_keys();
  return s;
}

}  // namespace

LoadedConfig load_config_text(const std::string& text, const std::string& source,
                              const std::string& name, const std::vector<std::string>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(fmt::format("{}:{}:{}: malformed YAML: {}", source, e.mark.line + 1,
                                  e.mark.column + 1, e.msg));
  }
  // A `sweep:` section lists the grids of `fbosim sweep` (sweep_plan.hpp); a single
  // experiment is the config without it.
  if (root.IsMap()) root.remove("sweep");
  for (const std::string& o : overrides) ConfigReader::apply_override(root, o);
  ConfigReader reader(root, source);
  try {
    ExperimentSpec spec = read_spec(reader, name);
    return {std::move(spec), reader.resolved()};
  } catch (const std::invalid_argument& e) {
    throw ConfigError(source + ": " + e.what());
  }
}

LoadedConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open the config file");
  std::stringstream text;
  text << in.rdbuf();
  return load_config_text(text.str(), path, std::filesystem::path(path).stem().string(), overrides);
}

}  // namespace fbosim::sim

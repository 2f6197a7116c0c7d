// Reading through the schema gives what sim/experiment's readers give: for every shipped config
// and every curve its header lists, for each of them under every algorithm, and for configs
// that exercise derived defaults, conditional keys and bad values, the resolved configuration
// (the YAML `fbosim config` prints) is the same text, or the error the same message. This is
// the reader the switch-over will build (experiment keys, the family's keys, agents.count, the
// algorithm's keys with its presets, validate and build, the accounting and network keys);
// the checks that need the built experiment stay in the config reader and are left out here:
// unknown keys, accountants that cannot account for a release, a non-finite epsilon, N >= 2
// with DP, the resource estimate. A case that only those refuse is counted, not compared.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "datasets/objective_family_entry.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/config/strict_yaml.hpp"
#include "sim/schema/experiment/experiment_keys.hpp"
#include "yaml_source.hpp"

using namespace fbosim;

namespace {

namespace fs = std::filesystem;

YAML::Node to_yaml(const schema::Record& record) {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& [path, value] : record.entries()) {
    std::vector<std::string> parts;
    std::stringstream in(path);
    for (std::string p; std::getline(in, p, '.');) parts.push_back(p);
    std::vector<YAML::Node> chain{root};
    for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
      YAML::Node child = chain.back()[parts[k]];
      if (!child.IsMap()) {
        chain.back()[parts[k]] = YAML::Node(YAML::NodeType::Map);
        child = chain.back()[parts[k]];
      }
      chain.push_back(child);
    }
    using K = schema::Resolved::Kind;
    switch (value.kind) {
      case K::null:
        chain.back()[parts.back()] = YAML::Node(YAML::NodeType::Null);
        break;
      case K::boolean:
        chain.back()[parts.back()] = YAML::Node(value.text == "true");
        break;
      case K::integer:
        if (value.text[0] == '-')
          chain.back()[parts.back()] = YAML::Node(std::stoll(value.text));
        else
          chain.back()[parts.back()] = YAML::Node(std::stoull(value.text));
        break;
      case K::real:
      case K::text:
        chain.back()[parts.back()] = YAML::Node(value.text);
        break;
    }
  }
  return root;
}

std::string emit(const YAML::Node& node) {
  YAML::Emitter out;
  out << node;
  return out.c_str();
}

// The schema's reading of a config, as the switch-over's reader will do it.
std::string read_with_schema(const std::string& text, const std::string& source,
                             const std::string& stem, const std::vector<std::string>& overrides) {
  config::ConfigTree tree = config::ConfigTree::from_yaml(config::parse_yaml_strictly(text, source), source);
  tree.remove("sweep");
  for (const std::string& o : overrides) tree.apply_override(o);
  const schema_test::YamlSource src(tree, source);
  schema::Record record;
  config::ExperimentSpec s;
  s.name = stem;  // the reader's presets of the keys whose default is no literal
  if (const char* env = std::getenv("FBOSIM_DATA"); env && *env) s.objective.data_root = env;
  config::experiment_keys().without({"agents.count"}).read(s, src, record);
  const datasets::ObjectiveFamilyEntry& family =
      datasets::objective_registry().at(s.objective.family);
  schema::Options objective = family.options;
  objective.apply(family.presets);
  objective.read(src, record);
  config::experiment_keys().only({"agents.count"}).read(s, src, record);
  const protocol::AlgorithmEntry& algorithm = systems::algorithm_registry().at(s.algorithm);
  schema::Options options = algorithm.options;
  options.apply(algorithm.presets);
  for (const schema::Preset& p : algorithm.experiment_presets)
    config::accounting_keys().set(s, p.path, p.value);
  options.read(src, record);
  const datasets::ObjectiveShape shape = family.shape(objective);
  const protocol::ExperimentFacts facts{s.algorithm,      s.agents,        s.objective.family,
                                        shape.domain,     shape.dimension, shape.points,
                                        family.needs_data};
  schema::Problems problems;
  if (algorithm.validate) algorithm.validate(options, facts, problems);
  schema::throw_first(src, problems);
  std::shared_ptr<const protocol::Algorithm> system;
  try {
    system = algorithm.build(options, facts);
  } catch (const schema::ProblemError& e) {
    throw schema::Error(e.problem().key, schema::message_of(src, e.problem()));
  }
  protocol::AccountingDefaults accounting;
  if (algorithm.accounting) accounting = algorithm.accounting(*system, s.agents);
  if (accounting.accountant) s.server.accountant = *accounting.accountant;
  config::accounting_keys().read(s, src, record);
  if (!s.server.delta) s.server.delta = accounting.delta;  // a default, recorded as null
  config::network_keys().read(s, src, record);
  return emit(to_yaml(record));
}

struct Outcome {
  bool ok = false;
  std::string text;  // the resolved YAML, or the error
};

Outcome old_reader(const std::string& text, const std::string& stem,
                   const std::vector<std::string>& overrides) {
  try {
    return {true, emit(config::load_config_text(text, "case.yaml", stem, overrides).resolved)};
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}

Outcome new_reader(const std::string& text, const std::string& stem,
                   const std::vector<std::string>& overrides) {
  try {
    return {true, read_with_schema(text, "case.yaml", stem, overrides)};
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}

// The refusals that need the built experiment: the config reader's, not the schema's.
bool reader_level(const std::string& message) {
  for (const char* m : {"unknown key", "cannot account for", "no finite epsilon",
                        "must be >= 2 with DP", "memory", "operations"})
    if (message.find(m) != std::string::npos) return true;
  return false;
}

struct Tally {
  int compared = 0, errors_compared = 0, reader_only = 0;
};

void compare(const std::string& label, const std::string& text, const std::string& stem,
             const std::vector<std::string>& overrides, Tally& tally) {
  const Outcome o = old_reader(text, stem, overrides);
  const Outcome n = new_reader(text, stem, overrides);
  INFO(label);
  if (o.ok) {
    CHECK(n.ok);
    CHECK(n.text == o.text);
    ++tally.compared;
  } else if (!n.ok) {
    CHECK(n.text == o.text);
    ++tally.errors_compared;
  } else {
    INFO("only the old reader refused: " << o.text);
    CHECK(reader_level(o.text));
    ++tally.reader_only;
  }
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "# curve: --set a=b --set name=c" -> {"a=b", "name=c"}.
std::vector<std::vector<std::string>> curves(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# curve: ", 0) != 0) continue;
    std::vector<std::string> sets;
    std::stringstream words(line.substr(9));
    for (std::string w; words >> w;)
      if (w != "--set") sets.push_back(w);
    out.push_back(sets);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "schema reading = the readers of sim/experiment: every shipped config and curve, under "
    "every algorithm") {
  Tally tally;
  const fs::path configs = fs::path(FBOSIM_SOURCE_DIR) / "configs";
  std::vector<fs::path> files;
  for (const auto& dir : fs::directory_iterator(configs))
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".yaml") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 30);
  for (const fs::path& f : files) {
    const std::string text = read_file(f), stem = f.stem().string();
    const std::string label = f.parent_path().filename().string() + "/" + stem;
    compare(label, text, stem, {}, tally);
    for (const auto& sets : curves(text)) compare(label + " (curve)", text, stem, sets, tally);
    for (const std::string& a : systems::algorithm_registry().names())
      compare(label + " as " + a, text, stem, {"algorithm=" + a}, tally);
  }
  // Every config reads as itself, and most as other algorithms too.
  CHECK(tally.compared >= 100);
  WARN("compared " << tally.compared << " resolved configs and " << tally.errors_compared
                   << " errors; " << tally.reader_only << " refused only by the reader's checks");
}

TEST_CASE(
    "schema reading = the readers of sim/experiment: derived defaults, conditional keys, "
    "presets and every kind of bad value") {
  Tally tally;
  struct Case {
    const char* text;
    std::vector<std::string> sets;
  };
  const std::vector<Case> cases = {
      // Defaults of every algorithm on the default family, and on others.
      {"{}", {}},
      {"algorithm: ts", {}},
      {"algorithm: fts", {}},
      {"algorithm: dp_fts\nagents: {count: 10}", {}},
      {"algorithm: fts_target\nagents: {count: 4}", {}},
      {"algorithm: rgpe\nagents: {count: 4}\nobjective: {family: gp_box, dim: 3}", {}},
      {"algorithm: taf\nagents: {count: 4}\nsources: {history: ts}", {}},
      {"algorithm: po_gp_ucb\nobjective: {family: gp_grid2d, grid_side: 20}\nagents: {count: 2}",
       {}},
      {"algorithm: gp_ucb\nagents: {count: 2}", {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nagents: {count: 2}", {}},
      // Derived defaults: po.variant authors (ucb.delta 0.1, l = 0.25 x max_norm); dp_bo's
      // noise-free observations (gp.noise_var 0); Papernot & Steinke (rdp, release.delta).
      {"algorithm: po_gp_ucb\nobjective: {family: gp_grid2d, grid_side: 20}\npo: {variant: "
       "authors}\ncurator: {max_norm: 12}",
       {}},
      {"algorithm: po_gp_ucb\nobjective: {family: gp_grid2d, grid_side: 20}\npo: {variant: "
       "authors}\nucb: {delta: 0.2}\ngp: {lengthscale: 2}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {observations: noise_free, "
       "value: false}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {mechanism: papernot_steinke}", {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {mechanism: papernot_steinke, "
       "repetitions: {distribution: poisson, mean: 1}}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {observations: noise_free, "
       "de_freitas: {a: 1, tau: 0.5}}",
       {}},
      // Keys read only under a condition.
      {"algorithm: fts_target\nagents: {count: 4}\nsources: {history: ts, init_points: 2, "
       "pairing: authors}",
       {}},
      {"algorithm: fts_target\nagents: {count: 4}\nsources: {init_points: 2}", {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {repetitions: {distribution: "
       "poisson, shape: 2}}",
       {}},
      {"objective: {family: heterogeneous, normalise: g}", {}},
      {"objective: {family: gp_box, normalise: g}", {}},
      // Values of every type, the last --set winning.
      {"name: x\nseed: 18446744073709551615\nnetwork: {deadline: 9000000000000, latency: "
       "{distribution: uniform, min: 1, max: 2.5}}\nserver: {accountants: ' rdp, pld,rdp', "
       "delta: 1.0e-6}",
       {"rff.lengthscale=0.1", "rff.lengthscale=0.3", "standard_error=pairs"}},
      // Bad values, one of each kind, and each condition across keys.
      {"rounds: 0", {}},
      {"rounds: 2.0", {}},
      {"rounds:", {}},
      {"seed: -1", {}},
      {"rff: {lambda: .nan}", {}},
      {"gp: {noise_var: 0}", {}},
      {"gp: {fit: yes}", {}},
      {"local_ts: {method: exct}", {}},
      {"algorithm: fts_dee", {}},
      {"objective: {family: gp_grd}", {}},
      {"exploration: {weights: {start: 4, end: 5}}", {}},
      {"agents: {count: 6}\nexploration: {subregions: 7}", {}},
      {"algorithm: fts\nexploration: {subregions: 2}", {}},
      {"algorithm: fts\nserver: {dp: true}", {}},
      {"algorithm: dp_fts_de\nserver: {dp: false}", {}},
      {"objective: {family: gp_box}\nlocal_ts: {method: exact}", {}},
      {"agents: {count: 3}\nserver: {sampling: fixed, sampling_rate: 0.2}", {}},
      {"name: a/b", {}},
      {"name: ''", {}},
      {"datasets: {root: ''}", {}},
      {"network: {latency: {min: 3, max: 2}}", {}},
      {"network: {dropout: 1}", {}},
      {"server: {accountant: gdp}", {}},
      {"server: {accountants: 'rdp,xx'}", {}},
      {"server: {delta: 1}", {}},
      {"algorithm: fts_target\nagents: {count: 1}", {}},
      {"algorithm: fts_target\nagents: {count: 4}\ntarget: {agents: 2}", {}},
      {"algorithm: fts_target\nagents: {count: 4}\ntarget: {agents: 5}", {}},
      {"algorithm: fts_target\nagents: {count: 4}\nsources: {pairing: authors}", {}},
      {"objective: {family: landmine, split: authors, split_seed: 3}", {}},
      {"objective: {family: landmine, cv_folds: 1}", {}},
      {"objective: {family: activity, ranges: glass}", {}},
      {"objective: {family: emnist, conv1: 0}", {}},
      {"algorithm: po_gp_ucb\nobjective: {family: gp_box}", {}},
      {"algorithm: po_gp_ucb\nobjective: {family: gp_grid2d, grid_side: 2}\nagents: {init_points: "
       "5}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {hyperparameter: false, value: "
       "false}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {observations: noise_free}", {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {observations: noise_free, "
       "value: false}\ngp: {noise_var: 0.1}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\ngp: {noise_var: 0}", {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {mechanism: papernot_steinke, "
       "repetitions: {mean: 1}}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\nrelease: {mechanism: papernot_steinke, "
       "epsilon: 1.0e-9}",
       {}},
      {"algorithm: dp_bo\nobjective: {family: gp_box}\ngp: {signal_var: 2}", {}},
      {"algorithm: po_gp_ucb\nobjective: {family: gp_grid2d, grid_side: 20}\ngp: {noise_var: 0}",
       {}},
  };
  for (const Case& c : cases) compare(c.text, c.text, "case", c.sets, tally);
  CHECK(tally.compared >= 20);
  CHECK(tally.errors_compared >= 30);
  WARN("compared " << tally.compared << " resolved configs and " << tally.errors_compared
                   << " errors; " << tally.reader_only << " refused only by the reader's checks");
}

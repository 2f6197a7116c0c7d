#include "sim/config/config_loader.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/systems/algorithm_registry.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "core/cancellation.hpp"
#include "datasets/objective_family_entry.hpp"
#include "schema/catalog.hpp"
#include "schema/key_reading.hpp"
#include "schema/record.hpp"
#include "schema/suggest.hpp"
#include "sim/config/config_source.hpp"
#include "sim/config/config_tree.hpp"
#include "sim/config/data_dependent_timing.hpp"
#include "sim/config/experiment_keys.hpp"
#include "sim/config/key_catalog.hpp"
#include "sim/config/resource_estimate.hpp"
#include "sim/config/run_epsilon.hpp"
#include "sim/config/sweep_plan.hpp"
#include "sim/config/time_output_keys.hpp"
#include "sim/timeline/parameter_check.hpp"
#include "sim/timeline/timing_keys.hpp"
#include "sim/timeline/timing_model.hpp"

namespace fbosim::config {

namespace {

namespace fs = std::filesystem;

// The resolved configuration as YAML (config.resolved.yaml): the record's keys nested by their
// dotted paths, in the order first read; numbers bare, doubles in their shortest text.
YAML::Node to_yaml(const schema::Record& record) {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& [path, value] : record.entries()) {
    const std::vector<std::string> parts = split_dotted_key(path, path);
    // yaml-cpp nodes are handles: walk with a chain of copies to build nested maps.
    std::vector<YAML::Node> chain{root};
    for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
      YAML::Node child = chain.back()[parts[k]];
      if (!child.IsMap()) {
        chain.back()[parts[k]] = YAML::Node(YAML::NodeType::Map);
        child = chain.back()[parts[k]];
      }
      chain.push_back(child);
    }
    YAML::Node leaf;
    switch (value.kind) {
      case schema::Resolved::Kind::null:
        leaf = YAML::Node(YAML::NodeType::Null);
        break;
      case schema::Resolved::Kind::boolean:
        leaf = YAML::Node(value.text == "true");
        break;
      case schema::Resolved::Kind::integer:
        leaf = value.text[0] == '-' ? YAML::Node(std::stoll(value.text))
                                    : YAML::Node(std::stoull(value.text));
        break;
      case schema::Resolved::Kind::real:
      case schema::Resolved::Kind::text:
        leaf = YAML::Node(value.text);
        break;
      case schema::Resolved::Kind::real_list:  // "[0.1, 0.3]" as a flow sequence
        leaf = YAML::Load(value.text);
        leaf.SetStyle(YAML::EmitterStyle::Flow);
        break;
    }
    chain.back()[parts.back()] = leaf;
  }
  return root;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

// Refuses the keys given that nothing read: a few named in full (each with its line, whose key
// it is when another algorithm or family reads it, else the closest key read), the rest
// counted, so that a message stays a few lines even for thousands of unknown keys.
void reject_unknown_keys(const ConfigSource& src, const schema::Record& record,
                         const ExperimentSpec& s) {
  std::vector<std::string> known;
  for (const auto& entry : record.entries()) known.push_back(entry.first);
  std::sort(known.begin(), known.end());
  const std::vector<std::string> unknown = src.unknown_keys(known);
  if (unknown.empty()) return;
  const schema::Catalog& catalog = key_catalog();
  constexpr std::size_t kListed = 10;
  std::string list;
  for (std::size_t i = 0; i < std::min(unknown.size(), kListed); ++i) {
    const std::string& k = unknown[i];
    list += (list.empty() ? "'" : ", '") + shorten(k) + "'";
    if (const std::string origin = src.origin(k); origin.rfind("line ", 0) == 0)
      list += " (" + origin + ")";
    const schema::CatalogKey* key = catalog.find(k);
    if (key && !key->read_by(s.algorithm)) {
      list += " (a key of algorithm" + std::string(key->owners.size() > 1 ? "s " : " ") +
              joined(key->owners) + ", not of " + s.algorithm + ")";
    } else if (key && !key->applies_to_family(s.objective.family)) {
      list += " (a key of objective.family " + joined(key->owners) + ", not of " +
              s.objective.family + ")";
    } else if (k.size() <= 100) {
      list += did_you_mean(k, known);
    }
  }
  if (unknown.size() > kListed) list += fmt::format(" and {} more", unknown.size() - kListed);
  throw ConfigError(src.source() + ": unknown key" + (unknown.size() > 1 ? "s " : " ") + list +
                    " (see docs/CONFIG.md for the keys)");
}

// The algorithm of a config that names none: DP-FTS-DE where it gives P >= 2 sub-regions, else
// DP-FTS, which is what DP-FTS-DE with P = 1 runs (issue 39: a name gives its algorithm, and a
// DE name with P = 1 is refused). P itself is read, checked and recorded by the algorithm.
std::string default_algorithm(const ConfigSource& src) {
  const std::string p = "exploration.subregions";
  int subregions = 1;
  if (src.presence(p) == schema::Source::Presence::given && src.read(p, subregions).empty() &&
      subregions >= 2)
    return "dp_fts_de";
  return "dp_fts";
}

// The checks that need the built algorithm's releases: with DP, N >= 2 unless server.delta is
// set under server.delta_rule: paper (N^-1.1 is 1 for a single agent: no privacy statement); every
// accountant supports every event the algorithm can release (e.g. the moments accountant
// refuses fixed-size sampling): fail now rather than after the first round.
// Returns whether the algorithm releases anything private.
bool check_accounting(const ConfigSource& src, const ExperimentSpec& s, bool delta_given) {
  const std::vector<privacy::DpEvent> events = s.system->possible_events(s.agents);
  bool releases = false;
  for (const privacy::DpEvent& e : events) releases = releases || !e.as<privacy::NoOp>();
  schema::Problems problems;
  if (releases && !delta_given && s.agents < 2 && s.server.delta_rule == DeltaRule::paper)
    problems.push_back({"agents.count",
                        "must be >= 2 with DP under server.delta_rule: paper unless server.delta "
                        "is set (N^-1.1 must be < 1)"});
  std::vector<std::string> all = s.server.accountants;
  all.insert(all.begin(), s.server.accountant);
  for (const privacy::DpEvent& event : events)
    for (const std::string& a : all)
      if (!privacy::make_accountant(a)->supports(event))
        problems.push_back({a == s.server.accountant ? "server.accountant" : "server.accountants",
                            fmt::format("accountant '{}' cannot account for this release ({})", a,
                                        privacy::to_string(event))});
  schema::throw_first(src, problems);
  return releases;
}

// Rejects an experiment whose memory (on this machine) or work estimate is absurd, naming the
// keys of the largest term, before anything is allocated.
void check_resources(const ConfigSource& src, const ExperimentSpec& s) {
  const std::string why = resource_refusal(estimate_resources(s), memory_limit());
  if (!why.empty()) throw ConfigError(src.source() + ": " + why);
}

// Whether the config gives any key of `group` (a key given is one that reads a value).
template <class S>
std::optional<std::string> first_given(const schema::Group<S>& group, const S& defaults,
                                       const ConfigSource& src) {
  for (const schema::KeyDoc& d : group.docs(defaults))
    if (src.presence(d.path) != schema::Source::Presence::absent) return d.path;
  return std::nullopt;
}

// network.* under a schedule on the clock (docs/TIME.md, "The network on the clock"): latencies
// are seconds of the simulated clock (run::MessageArrivals), bounded as the timing.* parameters
// are; network.dropout loses a message per (agent, evaluation). network.deadline is the rounds'
// rule (close a round some ticks after its broadcast, drop later replies): the clock's schedules
// release at their own instants, so it is refused rather than silently ignored.
// (Keeps its name so that the call in read_schedule stays as it was.)
void check_network_default(const ExperimentSpec& s, const std::string& kind,
                           schema::Problems& problems) {
  const LatencySpec& l = s.network.latency;
  const bool uniform = l.distribution == "uniform";
  for (const auto& [key, value] : {std::pair{"network.latency.mean", uniform ? 0.0 : l.mean},
                                   std::pair{"network.latency.min", uniform ? l.min : 0.0},
                                   std::pair{"network.latency.max", uniform ? l.max : 0.0}})
    if (value > timeline::kMaxParameterSeconds)
      problems.push_back(
          {key, fmt::format("must be at most {:g} seconds under schedule.kind {} (on the clock a "
                            "latency is in seconds, bounded as the timing.* parameters are)",
                            timeline::kMaxParameterSeconds, kind)});
  if (s.network.deadline != NetworkSpec{}.deadline)
    problems.push_back(
        {"network.deadline",
         fmt::format("applies only under schedule.kind: rounds, not {}: it closes a round some "
                     "ticks after its broadcast and drops later replies; on the clock choose "
                     "schedule.kind: deadline with schedule.deadline (seconds; a late message "
                     "joins the next release) and network.dropout for lost messages",
                     kind)});
}

// timing.availability.trace relative to the config file's directory (a config given as text:
// the current directory), recorded resolved so that config.resolved.yaml reruns the same trace.
void resolve_trace(const ConfigSource& src, schema::Record& record, ExperimentSpec& s) {
  std::string& trace = s.timing.availability.trace;
  if (s.timing.availability.model != timeline::AvailabilityKind::trace || trace.empty()) return;
  const fs::path given(trace);
  std::error_code ec;
  if (given.is_relative() && fs::is_regular_file(src.source(), ec))
    trace = (fs::path(src.source()).parent_path() / given).lexically_normal().string();
  record.set("timing.availability.trace", schema::detail::resolved_text(trace));
}

// The first personal.* key the config gives (for messages about all of them).
std::string personal_key(const ConfigSource& src) {
  for (const char* k :
       {"personal.sampling_rates", "personal.budgets", "personal.q_ref", "personal.tiers.fractions",
        "personal.tiers.sampling_rates", "personal.tiers.budgets"})
    if (src.presence(k) == schema::Source::Presence::given) return k;
  return "personal.sampling_rates";
}

// Personal budgets stop an agent on the plan's bound of each release; a secure sum without
// padding charges its survivors more than that bound when messages drop out.
void check_personal_dropouts(const ConfigSource& src, const ExperimentSpec& s) {
  const protocol::PrivacyPlan plan = s.system->privacy_plan(s.agents);
  if (plan.agent_budgets.empty() || plan.bounds_dropouts) return;
  if (s.network.dropout == 0 && s.network.deadline == 0) return;
  schema::throw_first(
      src, {{personal_key(src),
             "personal budgets with server.trust: distributed need server.dropout_padding > 0 "
             "when messages can drop out (network.dropout or network.deadline): without "
             "padding the survivors are charged the smaller noise actually summed, more than "
             "the bound each agent's stop is checked with"}});
}

// schedule.* and, under any schedule but `rounds`, timing.* (issue 41): the algorithm must
// declare the schedule (AlgorithmTraits::schedules); network.deadline is the rounds' alone
// (network latencies and dropouts join the time line, the stop rules too: run::schedule_stops);
// the timing model is built once here so that a bad trace file fails before any run. Durations
// that depend on data (timing.duration.scale_by: records) make release times reveal data: they
// are admitted only where they can be accounted (check_data_dependent_timing).
void read_schedule(const ConfigSource& src, schema::Record& record, ExperimentSpec& s,
                   const protocol::AlgorithmEntry& algorithm) {
  if (first_given(schedule_keys(), s, src)) schedule_keys().read(s, src, record);
  const protocol::ScheduleKind kind = s.schedule.kind;
  const std::string name(protocol::kScheduleKindNames.name(kind));
  schema::Problems problems;
  if (kind == protocol::ScheduleKind::rounds) {
    if (const auto key = first_given(timeline::timing_keys(), s.timing, src))
      problems.push_back({*key,
                          "applies only under a schedule.kind other than rounds (the papers' "
                          "synchronous rounds have no clock: docs/TIME.md)"});
    if (const auto key = first_given(time_output_keys(), s.time_output, src))
      problems.push_back({*key,
                          "applies only under a schedule.kind other than rounds (the papers' "
                          "synchronous rounds have no clock: docs/TIME.md)"});
    schema::throw_first(src, problems);
    return;
  }
  const auto& supported = algorithm.traits.schedules;
  if (std::find(supported.begin(), supported.end(), kind) == supported.end())
    problems.push_back(
        {"schedule.kind", fmt::format("algorithm {} does not run under '{}': {}", s.algorithm, name,
                                      algorithm.traits.schedules_why)});
  if (kind == protocol::ScheduleKind::buffered) {
    if (s.schedule.buffer == 0) s.schedule.buffer = s.agents;
    if (s.schedule.buffer > s.agents)
      problems.push_back(
          {"schedule.buffer",
           fmt::format("must be at most agents.count ({}), got {}", s.agents, s.schedule.buffer)});
  }
  // Age weights: read under latest only (schedule_keys); said why rather than an unknown key.
  const auto given = [&](const char* key) {
    return src.presence(key) != schema::Source::Presence::absent;
  };
  if (kind != protocol::ScheduleKind::latest && given("schedule.age_weight"))
    problems.push_back(
        {"schedule.age_weight",
         fmt::format("applies only under schedule.kind: latest, not {}: there every message is in "
                     "the first release after it is made (age 0, weight 1)",
                     name)});
  else if (s.schedule.age_weight != AgeWeight::fedasync && given("schedule.age_exponent"))
    problems.push_back(
        {"schedule.age_exponent", "applies only with schedule.age_weight: fedasync"});
  if (s.schedule.age_weight != AgeWeight::one && !algorithm.traits.age_weights)
    problems.push_back(
        {"schedule.age_weight",
         fmt::format("weights the messages a server aggregates by their age, but algorithm {} "
                     "has no server; leave schedule.age_weight out or use an algorithm with a "
                     "server (fts, fts_de, dp_fts, dp_fts_de)",
                     s.algorithm)});
  if (s.schedule.workers > 1 && !algorithm.traits.workers)
    problems.push_back(
        {"schedule.workers",
         fmt::format("algorithm {} runs one evaluation at a time per agent: several in flight are "
                     "built for ts only (a Thompson sample given the completed evaluations, "
                     "Kandasamy et al. 2018); an FTS-family agent's messages and broadcasts are "
                     "planned per evaluation, and UCB-type agents would need pending-point rules",
                     s.algorithm)});
  if (s.schedule.batches && s.schedule.workers == 1)
    problems.push_back({"schedule.batches",
                        "applies only with schedule.workers above 1 (batches of one evaluation "
                        "are the asynchronous schedule)"});
  check_network_default(s, name, problems);
  // run::release_charge charges a trust model's own events from the time line (a secure sum's
  // agents at the noise summed, every local message sent; docs/TRUST.md); server.budget,
  // server.stop_p and personal budgets stop on the time line's public charges
  // (run::schedule_stops; docs/TIME.md "Stop rules and personal budgets") under the trusted
  // server. Personal rates with a trust model are not wired into schedule_stops, and local's
  // messages are charged when sent whether or not a stop has ended the releases.
  const systems::FtsDeConfig* fts = systems::fts_de_config(s.system.get());
  const server::Trust trust = fts && fts->dp ? fts->mechanism.trust.trust : server::Trust::central;
  if (trust != server::Trust::central) {
    const protocol::PrivacyPlan plan = s.system->privacy_plan(s.agents);
    if (!plan.agent_round.empty())
      problems.push_back(
          {personal_key(src),
           fmt::format("applies only under schedule.kind: rounds with server.trust other than "
                       "central, not {}: the asynchronous schedules charge personal rates and "
                       "budgets under the trusted server only (docs/TRUST.md)",
                       name)});
    if (trust == server::Trust::local &&
        plan.server_rounds != protocol::PrivacyPlan{}.server_rounds)
      problems.push_back(
          {"server.stop_p",
           fmt::format("applies under schedule.kind {} with server.trust: local only once its "
                       "charges stop with the server: every local message is charged when it is "
                       "sent, and the stop is not wired into the sending (docs/TRUST.md)",
                       name)});
  }
  schema::throw_first(src, problems);
  // Agents take part unevenly: one ledger per agent (run::AgentPrivacy, agents.csv).
  s.per_agent_ledgers = true;
  timeline::timing_keys().read(s.timing, src, record);
  if (first_given(time_output_keys(), s.time_output, src))
    time_output_keys().read(s.time_output, src, record);
  // A trace ends an agent's online time: with several workers an evaluation could then never
  // complete while a later one did, which the plan does not represent.
  if (s.schedule.workers > 1 && s.timing.availability.model == timeline::AvailabilityKind::trace)
    throw ConfigError(src.source() +
                      ": timing.availability.model: trace is refused with schedule.workers " +
                      std::to_string(s.schedule.workers) +
                      ": an agent whose online time ends could leave an evaluation unfinished "
                      "between finished ones (not built yet); use always, exponential or fixed");
  resolve_trace(src, record, s);
  check_data_dependent_timing(src, s, personal_key(src));
  try {
    (void)timeline::TimingModel::from_spec(s.timing, s.agents, core::RngFactory(s.seed, 0));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(src.source() + ": " + e.what());
  } catch (const std::runtime_error& e) {  // a trace file that cannot be read
    throw ConfigError(src.source() + ": " + e.what());
  }
}

// Reads every key through the schemas (schema): the experiment's keys, the family's
// (its registry entry), agents.count, the algorithm's (its registry entry, presets first),
// the conditions across keys (the entry's validate), the build, then the accounting keys
// (with the defaults that follow from the built algorithm) and the network keys. Ranges and
// choices are checked once, by the schema; the record is the resolved configuration.
ExperimentSpec read_spec(const ConfigSource& src, schema::Record& record,
                         const std::string& default_name) {
  ExperimentSpec s;
  s.name = default_name;  // the defaults that are no literal: the file's stem, $FBOSIM_DATA
  if (const char* env = std::getenv("FBOSIM_DATA"); env && *env) s.objective.data_root = env;
  experiment_keys().without({"agents.count"}).read(s, src, record);
  if (src.presence("algorithm") != schema::Source::Presence::given) {
    s.algorithm = default_algorithm(src);
    record.set("algorithm", schema::detail::resolved_text(s.algorithm));
  }

  const datasets::ObjectiveFamilyEntry& family =
      datasets::objective_registry().at(s.objective.family);
  s.objective.settings = family.options;
  s.objective.settings.apply(family.presets);
  s.objective.settings.read(src, record);
  experiment_keys().only({"agents.count"}).read(s, src, record);

  const protocol::AlgorithmEntry& algorithm = systems::algorithm_registry().at(s.algorithm);
  schema::Options options = algorithm.options;
  options.apply(algorithm.presets);
  for (const schema::Preset& p : algorithm.experiment_presets)
    accounting_keys().set(s, p.path, p.value);
  options.read(src, record);
  s.objective_shape = family.shape(s.objective.settings);
  const protocol::ExperimentFacts facts = experiment_facts(s);
  schema::Problems problems;
  if (algorithm.validate) algorithm.validate(options, facts, problems);
  schema::throw_first(src, problems);
  try {
    s.system = algorithm.build(options, facts);
  } catch (const schema::ProblemError& e) {
    throw schema::Error(e.problem().key, schema::message_of(src, e.problem()));
  }
  // FTS's target sees the base function itself on a synthetic family (FTS sec. 5.1).
  if (algorithm.traits.unperturbed_agents > 0 && !family.needs_data && family.unperturbed)
    family.unperturbed(s.objective.settings, algorithm.traits.unperturbed_agents);

  protocol::AccountingDefaults accounting;
  if (algorithm.accounting) accounting = algorithm.accounting(*s.system, s.agents);
  if (accounting.accountant) s.server.accountant = *accounting.accountant;
  accounting_keys().read(s, src, record);
  const bool delta_given = s.server.delta.has_value();
  s.delta_per_agent = !accounting.delta.has_value();
  if (!s.server.delta) s.server.delta = accounting.delta;  // a default, recorded as null
  // Every accountant must state a finite epsilon at the delta for everything the run releases
  // (basic composition has none below the sum of the events' deltas; a tiny noise multiplier
  // none at all): fail now, never report 0 or inf later.
  if (check_accounting(src, s, delta_given || accounting.delta.has_value()))
    check_run_epsilon(src.source(), record, s, algorithm.privacy_keys);
  network_keys().read(s, src, record);
  // A trust model other than `central` charges each agent what its adversary learns (issue 42).
  if (s.system->charges_per_agent()) s.per_agent_ledgers = true;
  check_personal_dropouts(src, s);
  read_schedule(src, record, s, algorithm);
  reject_unknown_keys(src, record, s);
  check_resources(src, s);
  return s;
}

}  // namespace

LoadedConfig load_config_text(const std::string& text, const std::string& source,
                              const std::string& name, const std::vector<std::string>& overrides) {
  const YAML::Node root = parse_yaml_strictly(text, source);
  ConfigTree tree = ConfigTree::from_yaml(root, source);
  // A `sweep:` section lists the grids of `fbosim sweep` (sweep_plan.hpp); a single
  // experiment is the config without it, but a malformed section is an error here too.
  try {
    (void)grids_from_yaml(root, source);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  tree.remove("sweep");
  for (const std::string& o : overrides) tree.apply_override(o);
  schema::Record record;
  const ConfigSource src(tree, source, record);
  try {
    ExperimentSpec spec = read_spec(src, record, name);
    return {std::move(spec), to_yaml(record)};
  } catch (const schema::Error& e) {
    throw ConfigError(e.what());
  } catch (const std::invalid_argument& e) {
    throw ConfigError(source + ": " + e.what());
  }
}

namespace {

std::string too_long(const std::string& path, const std::string& why) {
  return fmt::format(
      "{}: more than the {} bytes (1 MiB) a config file may hold ({}): is it a "
      "config file?",
      path, kMaxConfigBytes, why);
}

// A file that is not regular (a pipe, /dev/stdin, a device), read without blocking: up to the
// bound (/dev/zero is refused after 1 MiB), until an interrupt, and for at most kSilence
// without data (a FIFO that nobody writes to would otherwise wait for ever).
std::string read_stream(const std::string& path) {
  constexpr auto kSilence = std::chrono::seconds(10);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw ConfigError(
        fmt::format("{}: cannot open the config file: {}", path, std::strerror(errno)));
  const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    ::close(*f);
    delete f;
  });
  std::string text;
  std::array<char, 65536> buffer{};
  auto last = std::chrono::steady_clock::now();
  while (true) {
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    core::throw_if_cancelled();
    if (ready == 0 || (ready < 0 && errno == EINTR)) {
      if (std::chrono::steady_clock::now() - last > kSilence)
        throw ConfigError(fmt::format("{}: no data for {} s (a pipe that nobody writes to?)", path,
                                      kSilence.count()));
      continue;
    }
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n == 0) return text;
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw ConfigError(
          fmt::format("{}: cannot read the config file: {}", path, std::strerror(errno)));
    }
    text.append(buffer.data(), static_cast<std::size_t>(n));
    if (text.size() > kMaxConfigBytes) throw ConfigError(too_long(path, "not a regular file"));
    last = std::chrono::steady_clock::now();
  }
}

}  // namespace

std::string read_config_text(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  // A path is taken as given, a relative one from the current directory, by the CLI and by
  // fbosim.run alike (issue 28): a missing file says where it was looked for.
  if (status.type() == fs::file_type::not_found) {
    const fs::path p(path);
    std::error_code cwd_ec;
    const fs::path cwd = fs::current_path(cwd_ec);
    throw ConfigError(
        p.is_absolute() || cwd_ec
            ? fmt::format("{}: no such config file", path)
            : fmt::format("{}: no such config file (looked for {}: a relative path is taken from "
                          "the current directory, {})",
                          path, (cwd / p).lexically_normal().string(), cwd.string()));
  }
  if (fs::is_directory(status)) throw ConfigError(path + ": is a directory, not a config file");
  if (fs::exists(status) && !fs::is_regular_file(status)) return read_stream(path);
  // A regular file's size is known before reading.
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxConfigBytes)
    throw ConfigError(
        fmt::format("{}: {} bytes, more than the {} bytes (1 MiB) a config file "
                    "may hold: is it a config file?",
                    path, size, kMaxConfigBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ConfigError(
        fmt::format("{}: cannot open the config file: {}", path, std::strerror(errno)));
  std::string text;
  std::array<char, 65536> buffer{};
  while (in && text.size() <= kMaxConfigBytes) {
    in.read(buffer.data(), buffer.size());
    text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw ConfigError(path + ": cannot read the config file");
  if (text.size() > kMaxConfigBytes) throw ConfigError(too_long(path, "it grew while read"));
  return text;
}

LoadedConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load_config_text(read_config_text(path), path, std::filesystem::path(path).stem().string(),
                          overrides);
}

}  // namespace fbosim::config

#include "sim/config/private_bo_reader.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "algorithms/privacy/basic_accountant.hpp"
#include "algorithms/systems/dp_bo_system.hpp"
#include "algorithms/systems/po_gp_ucb_system.hpp"
#include "sim/config/model_keys.hpp"

namespace fbosim::config {

namespace {

// The number of points of a finite synthetic domain (0 for a box or real data).
double grid_size(const ExperimentSpec& s) {
  const auto& o = s.objective;
  if (o.family == "gp_grid2d")
    return static_cast<double>(o.synthetic.grid_side) * o.synthetic.grid_side;
  if (o.family == "gp_grid" || o.family == "heterogeneous") return o.synthetic.grid_points;
  return 0;
}

// The default server.delta: the sum of the releases' deltas, which basic composition spends,
// summed by the accountant itself (a sum in another order could fall below its own by an ulp).
void default_delta(ExperimentSpec& s, const protocol::Algorithm& system) {
  privacy::BasicAccountant basic;
  for (const privacy::DpEvent& e : system.possible_events(s.agents)) basic.compose(e);
  if (basic.delta_sum() > 0 && basic.delta_sum() < 1) s.server.delta = basic.delta_sum();
}

}  // namespace

std::shared_ptr<const protocol::Algorithm> read_po_gp_ucb(ConfigReader& r, ExperimentSpec& s) {
  systems::PoGpUcbConfig c;
  c.name = s.algorithm;
  r.require(grid_size(s) > 0, "objective.family",
            fmt::format("{} needs the curator's finite dataset: gp_grid2d, gp_grid or "
                        "heterogeneous, not '{}'",
                        s.algorithm, s.objective.family));
  const bool authors = r.get_choice("po.variant", "paper", {"paper", "authors"}) == "authors";
  c.variant = authors ? systems::PoVariant::authors : systems::PoVariant::paper;
  c.max_norm = r.get<double>("curator.max_norm", c.max_norm);
  r.require(c.max_norm > 0, "curator.max_norm", "must be > 0");
  auto& k = c.curator;
  k.epsilon = r.get<double>("curator.epsilon", std::exp(1.1));
  r.require(k.epsilon > 0, "curator.epsilon", "must be > 0");
  k.delta = r.get<double>("curator.delta", 1e-5);
  r.require(k.delta > 0 && k.delta < 1, "curator.delta", "must be in (0, 1)");
  k.r = r.get_int("curator.r", k.r, 1, 100000);
  k.lift = authors ? curator::Lift::authors : curator::Lift::paper;
  auto& u = c.ucb;
  // paper: delta' = delta_ucb / 2 = 0.025 (Thm. 3 with sec. 4's delta_ucb = 0.05); authors: 0.1.
  u.delta = r.get<double>("ucb.delta", authors ? 0.1 : 0.025);
  r.require(u.delta > 0 && u.delta < 1, "ucb.delta", "must be in (0, 1)");
  u.bonus =
      authors ? agents::GpUcbOptions::Bonus::variance : agents::GpUcbOptions::Bonus::deviation;
  u.exclude_queried = true;
  u.init_points = r.get_int("agents.init_points", 1, 1, kMaxCount);
  r.require(u.init_points <= grid_size(s), "agents.init_points",
            fmt::format("must be at most the {:g} points of the dataset", grid_size(s)));
  // The synthetic experiment's hyperparameters (sec. 4: l = 1.25, sigma_y^2 = 1, sigma_n^2 =
  // 1e-5), known to the modeler; the authors' code sets l = 0.25 x the maximal norm.
  u.hyper.lengthscale = r.get<double>("gp.lengthscale", authors ? 0.25 * c.max_norm : 1.25);
  r.require(u.hyper.lengthscale > 0, "gp.lengthscale", "must be > 0");
  u.hyper.signal_var = r.get<double>("gp.signal_var", 1.0);
  r.require(u.hyper.signal_var > 0, "gp.signal_var", "must be > 0");
  u.hyper.noise_var = r.get<double>("gp.noise_var", 1e-5);
  r.require(u.hyper.noise_var >= 0, "gp.noise_var", "must be >= 0");
  auto system = std::make_shared<systems::PoGpUcbSystem>(c);
  if (system->is_private_variant()) {
    s.server.accountant = "basic";  // N (epsilon, delta) releases: basic composition
    default_delta(s, *system);
  }
  return system;
}

void estimate_po_gp_ucb(const ExperimentSpec& s, ResourceEstimate& e) {
  const auto& c = dynamic_cast<const systems::PoGpUcbSystem&>(*s.system).config();
  const double n = grid_size(s), agents = s.agents, q = std::max(c.curator.r, 2);
  const double t = c.ucb.init_points + static_cast<double>(s.rounds);
  const std::string kn = key_value("points", n);
  e.memory.push_back({agents * n * (q + t + 4) * 8, key_value("agents.count", agents) + " x " + kn +
                                                        " x (" + key_value("curator.r", q) +
                                                        " + observations) (Z and the posterior)"});
  e.work.push_back({static_cast<double>(s.runs) * agents * t * n * (t + q + 10),
                    key_value("runs", s.runs) + " x " + key_value("agents.count", agents) + " x " +
                        key_value("rounds", s.rounds) + " x " + kn + " (GP-UCB steps)"});
}

std::shared_ptr<const protocol::Algorithm> read_dp_bo(ConfigReader& r, ExperimentSpec& s) {
  systems::DpBoConfig c;
  c.per_axis = r.get_int("candidates.per_axis", c.per_axis, 2, 1000);
  const bool ps = r.get_choice("release.mechanism", "kusner", {"kusner", "papernot_steinke"}) ==
                  "papernot_steinke";
  c.mechanism =
      ps ? systems::ReleaseMechanism::papernot_steinke : systems::ReleaseMechanism::kusner;
  const bool noise_free =
      r.get_choice("release.observations", "noisy", {"noisy", "noise_free"}) == "noise_free";
  c.observations = noise_free ? systems::Observations::noise_free : systems::Observations::noisy;
  c.hyperparameter = r.get<bool>("release.hyperparameter", c.hyperparameter);
  c.value = r.get<bool>("release.value", c.value);
  r.require(c.hyperparameter || c.value, "release.value",
            "release.hyperparameter and release.value are both false: nothing to release");
  c.epsilon = r.get<double>("release.epsilon", c.epsilon);
  r.require(c.epsilon > 0, "release.epsilon", "must be > 0");
  c.delta = r.get<double>("release.delta", c.delta);
  r.require(c.delta > 0 && c.delta < 1, "release.delta", "must be in (0, 1)");
  c.neighbour_kernel = r.get<double>("release.neighbour_kernel", c.neighbour_kernel);
  r.require(c.neighbour_kernel >= 0 && c.neighbour_kernel <= 1, "release.neighbour_kernel",
            "must be in [0, 1]");
  c.greedy_gamma = r.get_choice("release.gamma_bound", "greedy", {"greedy", "trivial"}) == "greedy";
  // Every mechanism's keys are read in either mode, so one config holds both curves.
  c.de_freitas_a = r.get_optional<double>("release.de_freitas.a");
  c.de_freitas_tau = r.get_optional<double>("release.de_freitas.tau");
  if (c.de_freitas_a) r.require(*c.de_freitas_a >= 0, "release.de_freitas.a", "must be >= 0");
  if (c.de_freitas_tau) r.require(*c.de_freitas_tau > 0, "release.de_freitas.tau", "must be > 0");
  if (!ps && noise_free && c.value) {
    r.require(c.de_freitas_a.has_value(), "release.de_freitas.a",
              "the noise-free value release needs de Freitas et al.'s constant A (its "
              "sensitivity, Thm. 5, cannot be computed from data); give it or set "
              "release.value: false");
    r.require(c.de_freitas_tau.has_value(), "release.de_freitas.tau",
              "the noise-free value release needs de Freitas et al.'s constant tau");
  }
  auto& p = c.selection;
  const bool poisson =
      r.get_choice("release.repetitions.distribution", "truncated_negative_binomial",
                   {"truncated_negative_binomial", "poisson"}) == "poisson";
  p.mean = r.get<double>("release.repetitions.mean", p.mean);
  if (poisson) {
    r.require(p.mean >= 1 && p.mean <= 1e6, "release.repetitions.mean", "must be in [1, 1e6]");
    p.shape = std::numeric_limits<double>::infinity();
  } else {
    r.require(p.mean > 1 && p.mean <= 1e6, "release.repetitions.mean", "must be in (1, 1e6]");
    p.shape = r.get<double>("release.repetitions.shape", p.shape);
    r.require(p.shape >= 0 && p.shape <= 1000, "release.repetitions.shape",
              "must be in [0, 1000] (0: logarithmic, 1: geometric)");
  }
  p.sensitivity = r.get<double>("release.score_sensitivity", p.sensitivity);
  r.require(p.sensitivity > 0, "release.score_sensitivity", "must be > 0");
  auto& u = c.ucb;
  u.exclude_queried = false;  // plain GP-UCB over Lambda (Kusner et al. Alg. 1)
  u.init_points = r.get_int("agents.init_points", 1, 1, kMaxCount);
  u.hyper.lengthscale = r.get<double>("gp.lengthscale", 0.2);
  r.require(u.hyper.lengthscale > 0, "gp.lengthscale", "must be > 0");
  u.hyper.noise_var = r.get<double>("gp.noise_var", noise_free ? 0.0 : 1e-3);
  if (noise_free)
    r.require(u.hyper.noise_var == 0, "gp.noise_var",
              "must be 0 with release.observations: noise_free (the model then has a jitter only)");
  else
    r.require(u.hyper.noise_var > 0, "gp.noise_var",
              "must be > 0 with noisy observations (release.observations: noise_free for 0)");
  std::shared_ptr<const systems::DpBoSystem> system;
  try {
    system = std::make_shared<systems::DpBoSystem>(c);
  } catch (const std::invalid_argument& e) {
    r.require(false, ps ? "release.epsilon" : "release", e.what());
  }
  s.server.accountant = ps ? "rdp" : "basic";
  if (ps) {
    s.server.delta = c.delta;
  } else {
    default_delta(s, *system);
  }
  return system;
}

void estimate_dp_bo(const ExperimentSpec& s, ResourceEstimate& e) {
  const auto& c = dynamic_cast<const systems::DpBoSystem&>(*s.system).config();
  const double n = grid_size(s) > 0 ? grid_size(s) : std::pow(c.per_axis, 2.0);
  const double t = c.ucb.init_points + static_cast<double>(s.rounds), agents = s.agents;
  e.memory.push_back({agents * n * (t + 4) * 8,
                      key_value("agents.count", agents) + " x candidates (the posteriors)"});
  e.work.push_back({static_cast<double>(s.runs) * agents * t * n * (2 * t + 10),
                    key_value("runs", s.runs) + " x " + key_value("rounds", s.rounds) +
                        " x candidates (GP-UCB steps and the information-gain bound)"});
}

}  // namespace fbosim::config

// The per-agent charges of the trust models (server.trust, issue 42) through a whole run,
// against independent computations: each agent's events recomposed by hand from a replay of the
// network's dropouts, and the exact epsilon of the Gaussian mechanism (Balle & Wang 2018).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../../algorithms/privacy/analytic_gaussian.hpp"
#include "algorithms/server/dp_mechanism.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/network_model.hpp"
#include "sim/run/run_engine.hpp"

using namespace fbosim;

namespace {

const char* kTrustRun =
    "rounds: 5\nruns: 1\nseed: 4\n"
    "objective: {family: gp_grid, grid_points: 100, lengthscale: 0.05}\n"
    "agents: {count: 8, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 20}\n"
    "server: {dp: true, sampling_rate: 1.0, noise_multiplier: 2, clip_norm: 5,\n"
    "         accountant: pld, delta: 1.0e-5}\n";

config::ExperimentSpec trust_run_spec(const std::vector<std::string>& sets) {
  return config::load_config_text(kTrustRun, "trust.yaml", "trust", sets).spec;
}

// agents.csv's rows of the last snapshot (round = rounds): agent -> the value columns.
std::map<int, std::vector<double>> last_snapshot(const run::RunResult& r, int rounds) {
  std::map<int, std::vector<double>> out;
  std::istringstream in(r.agents_csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
    if (std::stoi(cells[1]) != rounds) continue;
    std::vector<double> values;
    for (std::size_t k = 4; k < cells.size(); ++k) values.push_back(std::stod(cells[k]));
    out[std::stoi(cells[3])] = values;
  }
  return out;
}

run::RunResult run_once(const config::ExperimentSpec& spec) {
  core::ThreadPool pool(1);
  const run::RunEngine engine(spec, pool);
  return engine.run(0);
}

}  // namespace

TEST_CASE("trust local: each agent's epsilon is its T messages' Gaussians composed by hand") {
  const config::ExperimentSpec spec = trust_run_spec({"server.trust=local", "server.local_z=3"});
  REQUIRE(spec.per_agent_ledgers);
  const run::RunResult r = run_once(spec);
  REQUIRE(r.agent_columns.front() == "epsilon");
  const auto eps = last_snapshot(r, spec.rounds);
  REQUIRE(eps.size() == 8u);
  // q = 1: every agent sends in each of the T server rounds (0 .. T - 1); T Gaussians of
  // multiplier 3 compose to one of 3 / sqrt(T).
  const double exact = test::analytic_gaussian_epsilon(3.0 / std::sqrt(5.0), 1e-5);
  for (const auto& [n, v] : eps) {
    INFO("agent " << n << " exact " << exact << " ledger " << v[0]);
    CHECK(exact <= v[0] + 1e-9);
    CHECK(v[0] - exact <= 2e-3 * exact);
  }
  CHECK(r.final_epsilon == Approx(exact).epsilon(2e-3));
}

TEST_CASE(
    "trust local with the secret coin: every agent is charged every round, the T coin events "
    "composed by Wang, Balle & Kasiviswanathan's bound (recomputed here term by term)") {
  const config::ExperimentSpec spec =
      trust_run_spec({"server.trust=local", "server.local_coin=true", "server.local_z=3",
                      "server.sampling_rate=0.25", "server.accountant=rdp"});
  const run::RunResult r = run_once(spec);
  const auto eps = last_snapshot(r, spec.rounds);
  REQUIRE(eps.size() == 8u);
  // Thm. 9 at gamma = 1/4, base RDP eps(j) = j / (2 z_local^2), integer orders, T = 5 messages,
  // the improved conversion (Canonne, Kamath & Steinke 2020, Prop. 12): written out here.
  const double g = 0.25, zl = 3, delta = 1e-5;
  const auto base = [&](double j) { return j / (2 * zl * zl); };
  double best = 1e300;
  for (int a = 2; a <= 256; ++a) {
    double sum = 1;  // the leading 1
    sum += g * g * a * (a - 1) / 2.0 * std::min(4 * std::expm1(base(2)), 2 * std::exp(base(2)));
    for (int j = 3; j <= a; ++j)
      sum += 2 * std::exp(j * std::log(g) + std::lgamma(a + 1.0) - std::lgamma(j + 1.0) -
                          std::lgamma(a - j + 1.0) + (j - 1) * base(j));
    const double rdp = 5 * std::min(base(a), std::log(sum) / (a - 1));
    best = std::min(best, rdp + std::log1p(-1.0 / a) - (std::log(delta) + std::log(a)) / (a - 1));
  }
  for (const auto& [n, v] : eps) {
    INFO("agent " << n << " by hand " << best << " ledger " << v[0]);
    CHECK(v[0] == Approx(best).epsilon(0.02));  // the accountant's order grid is coarser
    CHECK(v[0] >= best - 1e-9);
  }
}

TEST_CASE(
    "trust distributed, 50 % dropouts without padding: the survivors' epsilons are the "
    "summed noise's Gaussians, recomposed from a replay of the dropouts") {
  const config::ExperimentSpec spec =
      trust_run_spec({"server.trust=distributed", "network.dropout=0.5"});
  const run::RunResult r = run_once(spec);
  const auto eps = last_snapshot(r, spec.rounds);
  // Replay who survived each round (the network's own streams), then charge each survivor of
  // round t the Gaussian of m'_t of the N = m shares: sigma_eff^2 = (m'_t / N) sigma^2, i.e.
  // multiplier z sqrt(m'_t / N); k Gaussians compose to one with 1 / z^2 = sum 1 / z_k^2.
  const core::RngFactory rf(spec.seed, 0);
  const run::NetworkModel network(spec.network);
  const int N = spec.agents;
  std::vector<double> inverse_z2(static_cast<std::size_t>(N), 0.0);
  int partial = 0;
  for (int t = 0; t < spec.rounds; ++t) {
    std::vector<int> survivors;
    for (int n = 0; n < N; ++n)
      if (network.delay(rf, n, t)) survivors.push_back(n);
    if (survivors.empty()) continue;  // aborted: nobody charged
    partial += static_cast<int>(survivors.size()) < N;
    const double m_prime = static_cast<double>(survivors.size());
    for (const int n : survivors)
      inverse_z2[static_cast<std::size_t>(n)] += N / (m_prime * 2.0 * 2.0);
  }
  REQUIRE(partial > 0);  // the seed drops someone
  for (int n = 0; n < N; ++n) {
    const double iz2 = inverse_z2[static_cast<std::size_t>(n)];
    const double ledger = eps.at(n)[0];
    INFO("agent " << n << " ledger " << ledger);
    if (iz2 == 0) {
      CHECK(ledger == 0);
      continue;
    }
    const double exact = test::analytic_gaussian_epsilon(1 / std::sqrt(iz2), 1e-5);
    INFO("exact " << exact);
    CHECK(exact <= ledger + 1e-9);
    CHECK(ledger - exact <= 2e-3 * exact);
  }
}

TEST_CASE(
    "trust distributed, server sampling: against the broadcast observer the central "
    "ledger holds, agents.csv has both") {
  const std::vector<std::string> sets = {"server.sampling_rate=0.5"};
  std::vector<std::string> distributed = sets;
  distributed.push_back("server.trust=distributed");
  const config::ExperimentSpec central_spec = trust_run_spec(sets);
  const config::ExperimentSpec spec = trust_run_spec(distributed);
  const run::RunResult central = run_once(central_spec);
  const run::RunResult r = run_once(spec);
  REQUIRE(r.agent_columns == std::vector<std::string>{"epsilon", "epsilon_broadcast"});
  const auto eps = last_snapshot(r, spec.rounds);
  // Replay the server's selection (its stream of each round) to count each agent's sums.
  const server::DpMechanism mech(systems::fts_de_config(spec.system.get())->mechanism, 10);
  const core::RngFactory rf(spec.seed, 0);
  std::vector<int> summed(static_cast<std::size_t>(spec.agents), 0);
  for (int t = 0; t < spec.rounds; ++t) {
    core::RngStream srv = rf.stream("server", static_cast<std::uint64_t>(t));
    const std::vector<bool> chosen = mech.select(static_cast<std::size_t>(spec.agents), srv);
    for (int n = 0; n < spec.agents; ++n) summed[static_cast<std::size_t>(n)] += chosen[n];
  }
  for (const auto& [n, v] : eps) {
    INFO("agent " << n << " summed " << summed[static_cast<std::size_t>(n)]);
    // No dropout: every agent is charged the central subsampled Gaussian in every round.
    CHECK(v[1] == central.final_epsilon);
    // Against the server: a Gaussian at q = 1 (z = 2) for each round it was summed in.
    const int k = summed[static_cast<std::size_t>(n)];
    if (k == 0) {
      CHECK(v[0] == 0);
      continue;
    }
    const double exact = test::analytic_gaussian_epsilon(2.0 / std::sqrt(double(k)), 1e-5);
    CHECK(exact <= v[0] + 1e-9);
    CHECK(v[0] - exact <= 2e-3 * exact);
  }
}

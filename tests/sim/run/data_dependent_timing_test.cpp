// Durations that depend on data (timing.duration.scale_by: records; docs/TIME.md "Durations that
// depend on data"), against independent computations: the replace-one event against the
// Gaussian mechanism's exact privacy profile at sensitivity 2 (Balle & Wang, ICML 2018, Thm. 8);
// the durations against r_n / reference times the plain model's; a fixed release count
// (schedule.releases) against the hand-derived three-agent plan; every agent's ledger against
// R releases composed by hand with a fresh accountant; the run against `fbosim privacy`'s
// replay and on 1 and 2 threads; the combinations that cannot be accounted refused, naming the
// key.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/privacy/neighbour_relation.hpp"
#include "core/thread_pool.hpp"
#include "sim/config/config_loader.hpp"
#include "sim/run/run_engine.hpp"
#include "sim/run/schedule_plan.hpp"
#include "sim/run/schedule_stops.hpp"
#include "sim/timeline/timing_model.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim;
using namespace fbosim::run;
using privacy::DpEvent;
using timeline::kTicksPerSecond;

namespace {

// The Gaussian mechanism's exact delta(epsilon) for sensitivity s and noise sigma (Balle &
// Wang 2018, Thm. 8): Phi(s / (2 sigma) - eps sigma / s) - e^eps Phi(-s / (2 sigma) - eps sigma
// / s).
double gaussian_delta(double eps, double s, double sigma) {
  const auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  return phi(s / (2 * sigma) - eps * sigma / s) -
         std::exp(eps) * phi(-s / (2 * sigma) - eps * sigma / s);
}

const char* kThree =
    "algorithm: dp_fts_de\nrounds: 2\nruns: 1\nseed: 5\n"
    "objective: {family: gp_grid, grid_points: 50, lengthscale: 0.05}\n"
    "agents: {count: 3, init_points: 2}\nexploration: {subregions: 2}\n"
    "rff: {features: 10, lengthscale: 0.05}\nlocal_ts: {features: 10}\n"
    "server: {sampling_rate: 0.5, noise_multiplier: 1.5, clip_norm: 5, accountant: rdp,\n"
    "         delta: 1.0e-5}\n"
    "timing: {duration: {model: constant, mean: 1}, tiers: {fractions: [0.3333], slowdowns: "
    "[3]}}\n";

// periodic with a period of 2 s unless `sets` chooses the schedule.
config::ExperimentSpec spec_of(std::vector<std::string> sets) {
  if (std::none_of(sets.begin(), sets.end(),
                   [](const std::string& k) { return k.rfind("schedule.kind=", 0) == 0; }))
    sets.insert(sets.begin(), {"schedule.kind=periodic", "schedule.period=2"});
  return config::load_config_text(kThree, "three.yaml", "three", sets).spec;
}

// The spec of `sets` with durations scaled by `records` (the config admits them only for
// objectives with records; this is the synthetic objective with the counts given by hand).
config::ExperimentSpec records_spec(std::vector<std::string> sets,
                                    std::vector<std::int64_t> records) {
  config::ExperimentSpec s = spec_of(sets);
  s.timing.duration.scale_by = timeline::DurationScale::records;
  s.timing.records = std::move(records);
  return s;
}

SchedulePlan plan_of(const config::ExperimentSpec& s) {
  return plan_schedule(s, core::RngFactory(s.seed, 0), true);
}

double rdp_epsilon(const DpEvent& e, long long k) {
  auto acc = privacy::make_accountant("rdp");
  acc->compose(e, k);
  return acc->epsilon(1e-5).epsilon;
}

}  // namespace

TEST_CASE("replace_one doubles the sensitivity of the noise mechanisms, through compositions") {
  CHECK(privacy::replace_one(DpEvent::gaussian(3)) == DpEvent::gaussian(1.5));
  CHECK(privacy::replace_one(DpEvent::laplace(2)) == DpEvent::laplace(1));
  CHECK(privacy::replace_one(DpEvent::self_composed(DpEvent::gaussian(4), 7)) ==
        DpEvent::self_composed(DpEvent::gaussian(2), 7));
  CHECK(privacy::replace_one(DpEvent::composed({DpEvent::gaussian(2), DpEvent::laplace(4)})) ==
        DpEvent::composed({DpEvent::gaussian(1), DpEvent::laplace(2)}));
  CHECK(privacy::replace_one(DpEvent::noop()) == DpEvent::noop());
  // A sampled event has no replace-one form here (its amplification is for add/remove).
  CHECK_THROWS_AS(privacy::replace_one(DpEvent::poisson_sampled(0.5, DpEvent::gaussian(1))),
                  std::invalid_argument);
  CHECK_THROWS_AS(privacy::replace_one(DpEvent::epsilon_delta(1, 1e-6)), std::invalid_argument);
  CHECK(privacy::without_sampling(DpEvent::poisson_sampled(0.3, DpEvent::gaussian(2))) ==
        DpEvent::gaussian(2));
  // The PLD accountant's epsilon of replace_one(Gaussian(z)) meets the exact profile of a
  // Gaussian of sensitivity 2 and noise z: delta(epsilon) at most the target, and barely.
  for (const double z : {1.0, 2.5, 6.0}) {
    auto acc = privacy::make_accountant("pld");
    acc->compose(privacy::replace_one(DpEvent::gaussian(z)), 1);
    const double eps = acc->epsilon(1e-5).epsilon;
    INFO("z = " << z << ", epsilon = " << eps);
    CHECK(gaussian_delta(eps, 2, z) <= 1e-5 * 1.001);
    CHECK(gaussian_delta(eps * 0.99, 2, z) > 1e-5);
  }
}

TEST_CASE("records: agent n's durations are the model's times its records over the reference") {
  timeline::TimingSpec t;
  t.duration.model = timeline::DurationKind::constant;
  t.duration.mean = 2;
  t.duration.scale_by = timeline::DurationScale::records;
  t.duration.reference_records = 100;
  t.records = {50, 100, 300};
  const auto m = timeline::TimingModel::from_spec(t, 3, core::RngFactory(1, 0));
  CHECK(m.duration(0, 0) == 1 * kTicksPerSecond);
  CHECK(m.duration(1, 4) == 2 * kTicksPerSecond);
  CHECK(m.duration(2, 9) == 6 * kTicksPerSecond);
  // A random model: the plain model's draw (same stream) times r / reference, to the tick rule.
  t.duration.model = timeline::DurationKind::exponential;
  t.duration.mean = 1;
  timeline::TimingSpec plain = t;
  plain.duration.scale_by = timeline::DurationScale::none;
  const auto scaled = timeline::TimingModel::from_spec(t, 3, core::RngFactory(1, 0));
  const auto base = timeline::TimingModel::from_spec(plain, 3, core::RngFactory(1, 0));
  for (int n = 0; n < 3; ++n)
    for (int k = 0; k < 20; ++k) {
      const double factor = static_cast<double>(t.records[static_cast<std::size_t>(n)]) / 100;
      CHECK(std::abs(static_cast<double>(scaled.duration(n, k)) -
                     factor * static_cast<double>(base.duration(n, k))) <= factor + 1);
    }
  t.records = {50, 100};
  CHECK_THROWS_WITH(timeline::TimingModel::from_spec(t, 3, core::RngFactory(1, 0)),
                    Catch::Contains("record count") && Catch::Contains("3 agents, 2 counts"));
  t.records = {50, 0, 3};
  CHECK_THROWS_WITH(timeline::TimingModel::from_spec(t, 3, core::RngFactory(1, 0)),
                    Catch::Contains("agent 1 has 0 records"));
}

TEST_CASE("schedule.releases fixes the count: empty releases after the last message, none after") {
  // Three agents of 1 s, one 3 s (rounds 2: messages after evaluations 0 and 1), period 2: by
  // hand the releases at 2, 4, 6 s hold fast(1), slow(0), slow(1) (schedule_plan_test).
  const SchedulePlan free = plan_of(spec_of({}));
  REQUIRE(free.releases.size() == 3);
  const SchedulePlan five = plan_of(spec_of({"schedule.releases=5"}));
  REQUIRE(five.releases.size() == 5);
  for (std::size_t j = 0; j < 5; ++j)
    CHECK(five.releases[j].time == static_cast<timeline::Tick>(2 * (j + 1)) * kTicksPerSecond);
  for (std::size_t j = 0; j < 3; ++j) CHECK(five.releases[j].messages == free.releases[j].messages);
  CHECK(five.releases[3].messages.empty());
  CHECK(five.releases[4].messages.empty());
  // Two: the slow agent's second message (arriving at 6 s) is never released.
  const SchedulePlan two = plan_of(spec_of({"schedule.releases=2"}));
  REQUIRE(two.releases.size() == 2);
  CHECK(two.releases[0].messages == free.releases[0].messages);
  CHECK(two.releases[1].messages == free.releases[1].messages);
  for (const auto& mine : two.evaluations)
    for (std::size_t k = 1; k < mine.size(); ++k) CHECK(mine[k].broadcast <= 2);
}

TEST_CASE("records: every agent is charged every release at replace-one sensitivity, q = 1") {
  for (const std::string kind : {"periodic", "latest", "deadline"}) {
    INFO(kind);
    std::vector<std::string> sets{"schedule.kind=" + kind, "schedule.releases=4"};
    sets.push_back(kind == "deadline" ? "schedule.deadline=2" : "schedule.period=2");
    const config::ExperimentSpec s = records_spec(sets, {100, 250, 40});
    const SchedulePlan plan = plan_of(s);
    REQUIRE(plan.releases.size() == 4);
    // The durations follow the records: agent 2 (40 records) completes first, in 0.4 s or
    // 1.2 s (its tier).
    const timeline::Tick first = plan.evaluations[2][0].complete;
    CHECK((first == 4 * kTicksPerSecond / 10 || first == 12 * kTicksPerSecond / 10));
    ScheduleReplay replay = replay_schedule(s, 0);
    CHECK(replay.releases == 4);
    const double hand = rdp_epsilon(DpEvent::gaussian(0.75), 4);
    for (const double e : replay.ledgers.epsilons(0, "in the test"))
      CHECK(e == Approx(hand).epsilon(1e-12));
    // The run charges the same: every agent, every release.
    core::ThreadPool pool(1);
    const RunResult r = RunEngine(s, pool).run(0);
    CHECK(r.final_epsilon == Approx(hand).epsilon(1e-12));
    CHECK(r.epsilon_median.back() == Approx(hand).epsilon(1e-12));
  }
  // Without records the same schedule charges only the releases holding each agent's message,
  // subsampled: less than the data-dependent charge.
  ScheduleReplay plain = replay_schedule(spec_of({"schedule.releases=4"}), 0);
  for (const double e : plain.ledgers.epsilons(0, "in the test"))
    CHECK(e < rdp_epsilon(DpEvent::gaussian(0.75), 4));
}

TEST_CASE("records: a long run's ledger meets the exact profile of R composed Gaussians") {
  // 200 releases, each Gaussian(z / 2) for every agent: together one Gaussian mechanism of
  // sensitivity 2 sqrt(200) and noise z = 1.5 (composition of Gaussians is exact). The PLD
  // ledger's epsilon must meet that profile's delta and be tight to 2 %.
  const config::ExperimentSpec s =
      records_spec({"schedule.releases=200", "server.accountant=pld"}, {100, 250, 40});
  ScheduleReplay replay = replay_schedule(s, 0);
  REQUIRE(replay.releases == 200);
  const double sensitivity = 2 * std::sqrt(200.0);
  for (const double e : replay.ledgers.epsilons(0, "in the test")) {
    INFO("epsilon " << e);
    CHECK(gaussian_delta(e, sensitivity, 1.5) <= 1e-5 * 1.001);
    CHECK(gaussian_delta(e * 0.98, sensitivity, 1.5) > 1e-5);
  }
}

TEST_CASE("records: server.budget stops before the first release that would pass it") {
  // Every agent is charged Gaussian(z / 2) per release: the budget between the epsilons of two
  // and three such releases, composed by hand, lets exactly two through.
  const double two = rdp_epsilon(DpEvent::gaussian(0.75), 2);
  const double three = rdp_epsilon(DpEvent::gaussian(0.75), 3);
  const double budget = 0.5 * (two + three);
  const config::ExperimentSpec s = records_spec(
      {"schedule.releases=5", "server.budget=" + std::to_string(budget)}, {100, 250, 40});
  ScheduleReplay replay = replay_schedule(s, 0);
  CHECK(replay.releases == 5);
  CHECK(replay.server_releases == 2);
  for (const double e : replay.ledgers.epsilons(0, "in the test"))
    CHECK(e == Approx(two).epsilon(1e-12));
  core::ThreadPool pool(1);
  const RunResult r = RunEngine(s, pool).run(0);
  CHECK(r.final_epsilon == Approx(two).epsilon(1e-12));
  CHECK(r.final_epsilon <= budget);
}

TEST_CASE("records: a run gives the same bytes on 1 and 2 threads") {
  const config::ExperimentSpec s =
      records_spec({"schedule.releases=3", "rounds=3"}, {100, 250, 40});
  core::ThreadPool one(1), two(2);
  const RunResult a = RunEngine(s, one).run(0);
  const RunResult b = RunEngine(s, two).run(0);
  CHECK(a.trace_csv == b.trace_csv);
  CHECK(a.agents_csv == b.agents_csv);
  CHECK(a.epsilon == b.epsilon);
}

TEST_CASE("records: the combinations that cannot be accounted are refused, naming the key") {
  const std::string dd = "timing.duration.scale_by=records";
  CHECK_THROWS_WITH(spec_of({dd, "schedule.kind=buffered"}),
                    Catch::Contains("three.yaml") && Catch::Contains("timing.duration.scale_by") &&
                        Catch::Contains("buffered"));
  CHECK_THROWS_WITH(spec_of({dd}), Catch::Contains("schedule.releases") &&
                                       Catch::Contains("depends on the agents' data"));
  CHECK_THROWS_WITH(spec_of({dd, "schedule.releases=3", "server.trust=distributed"}),
                    Catch::Contains("server.trust") && Catch::Contains("central"));
  CHECK_THROWS_WITH(spec_of({dd, "schedule.releases=3", "personal.sampling_rates=[0.5, 0.5, 1]"}),
                    Catch::Contains("personal.sampling_rates"));
  // Accountable, but the synthetic objective has no records.
  CHECK_THROWS_WITH(spec_of({dd, "schedule.releases=3"}), Catch::Contains("objective.family") &&
                                                              Catch::Contains("gp_grid") &&
                                                              Catch::Contains("no records"));
  // schedule.releases is a key of the fixed-instant schedules only.
  CHECK_THROWS_WITH(spec_of({"schedule.kind=buffered", "schedule.releases=3"}),
                    Catch::Contains("schedule.releases"));
  CHECK_NOTHROW(spec_of({"schedule.releases=3"}));
  CHECK(std::string(records_spec({"schedule.releases=3"}, {1, 2, 3}).epsilon_notion())
            .find("every agent charged for every release") != std::string::npos);
}

TEST_CASE("records: a landmine config reads every field's record count") {
  if (!fbosim::testing::have_data("landmine")) return;
  const config::ExperimentSpec s =
      config::load_config_text(
          "algorithm: dp_fts_de\nrounds: 2\nruns: 1\nobjective: {family: landmine}\n"
          "agents: {count: 29, init_points: 2}\nexploration: {subregions: 2}\nschedule: {kind: "
          "periodic, period: 5, releases: "
          "3}\ntiming: {duration: {model: constant, mean: 1, scale_by: records}}\n",
          "mine.yaml", "mine", {"datasets.root=" + fbosim::testing::data_root()})
          .spec;
  REQUIRE(s.timing.records.size() == 29);
  for (const std::int64_t r : s.timing.records) CHECK(r > 0);
  // The fields' training halves: 222 to 345 rows (counted from the raw file by hand,
  // tests/datasets/landmine/landmine_records_test.cpp).
  CHECK(*std::max_element(s.timing.records.begin(), s.timing.records.end()) == 345);
  CHECK(*std::min_element(s.timing.records.begin(), s.timing.records.end()) == 222);
}

// PoGpUcbSystem and DpBoSystem: what a run is built from (the curator's release before round 0,
// the same initial rows for the baseline) and what the final release publishes, each number
// against an independent computation.
#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <map>
#include <string>

#include "algorithms/privacy/accountant.hpp"
#include "algorithms/privacy/accountant_registry.hpp"
#include "algorithms/release/kusner_sensitivity.hpp"
#include "algorithms/systems/dp_bo_system.hpp"
#include "algorithms/systems/po_gp_ucb_system.hpp"
#include "schema/group.hpp"

using namespace fbosim;

namespace {

core::Domain square_grid(int side) {
  core::Domain d;
  d.dim = 2;
  d.grid.resize(side * side, 2);
  for (int j = 0; j < side; ++j)
    for (int i = 0; i < side; ++i) d.grid.row(i + side * j) << i / (side - 1.0), j / (side - 1.0);
  return d;
}

double f_of(const Eigen::VectorXd& x) { return -std::pow(x[0] - 0.3, 2) - std::pow(x[1] - 0.6, 2); }

// Round 0 and `rounds` GP-UCB steps of every agent, observing f exactly.
void drive(protocol::RunParts& parts, const core::RngFactory& rf, int rounds) {
  for (std::size_t n = 0; n < parts.agents.size(); ++n) {
    auto& a = *parts.agents[n];
    core::RngStream init = rf.stream("agent.init", n);
    for (const Eigen::VectorXd& x : a.initial_points(init)) a.observe(x, f_of(x));
    for (int t = 1; t <= rounds; ++t) {
      core::RngStream rng = rf.stream("agent.step", n, static_cast<std::uint64_t>(t));
      const Eigen::VectorXd x = a.propose(t, protocol::NoBroadcast{}, rng, rf).x;
      a.observe(x, f_of(x));
    }
  }
}

}  // namespace

TEST_CASE(
    "PO-GP-UCB: one (epsilon, delta) release per agent before round 0, the curator's Z, "
    "and the baseline starts from the same rows") {
  const core::Domain d = square_grid(12);
  const core::RngFactory rf(3, 1);
  systems::PoGpUcbConfig c;
  c.curator = {std::exp(1.1), 1e-5, 4, curator::Lift::paper};
  c.ucb.init_points = 2;
  c.ucb.hyper = {6.25, 1.0, 1e-5};
  const systems::PoGpUcbSystem po(c);
  protocol::RunParts parts = po.build({1, 3, &d, &rf, nullptr});
  REQUIRE(parts.agents.size() == 3);
  CHECK(parts.setup_events ==
        std::vector<privacy::DpEvent>(3, privacy::DpEvent::epsilon_delta(std::exp(1.1), 1e-5)));
  CHECK(po.possible_events(3) == parts.setup_events);
  CHECK(parts.measured == std::vector<int>{0, 1, 2});
  CHECK_FALSE(parts.final_release);
  // Agent 1 models the curator's release of the normalised grid with stream ("curator", 1).
  core::RngStream rng = rf.stream("curator", 1);
  const Eigen::MatrixXd Z = curator::release(curator::normalise(d.grid, 25).X, c.curator, rng).Z;
  const auto& agent = dynamic_cast<const agents::GpUcbAgent&>(*parts.agents[1]);
  CHECK(agent.posterior().candidates() == Z);
  CHECK(agent.points() == d.grid);
  // The baseline: no events, the normalised inputs, the same initial rows.
  c.name = "gp_ucb";
  const systems::PoGpUcbSystem base(c);
  protocol::RunParts bparts = base.build({1, 3, &d, &rf, nullptr});
  CHECK(bparts.setup_events.empty());
  CHECK(base.possible_events(3).empty());
  const auto& bagent = dynamic_cast<const agents::GpUcbAgent&>(*bparts.agents[1]);
  CHECK((bagent.posterior().candidates() - curator::normalise(d.grid, 25).X).norm() == 0);
  core::RngStream i1 = rf.stream("agent.init", 1), i2 = rf.stream("agent.init", 1);
  CHECK(parts.agents[1]->initial_points(i1) == bparts.agents[1]->initial_points(i2));
  // A box domain has no dataset.
  core::Domain box;
  box.dim = 2;
  CHECK_THROWS_WITH(po.build({0, 1, &box, &rf, nullptr}),
                    Catch::Matchers::Contains("finite domain"));
}

TEST_CASE("PO-GP-UCB's run facts: the curator's sigma_min, omega and branch on run 0's dataset") {
  const core::Domain d = square_grid(12);
  protocol::AuditInputs ai;
  ai.domain = [&]() -> const core::Domain& { return d; };
  // Independently: the centred grid scaled to maximal row norm 25, its smallest singular value
  // by a full SVD, and omega = 16 sqrt(r ln(2/delta)) ln(16 r/delta) / epsilon (Alg. 1 line 5).
  Eigen::MatrixXd X = d.grid.rowwise() - d.grid.colwise().mean();
  X *= 25 / X.rowwise().norm().maxCoeff();
  const double sigma_min = Eigen::JacobiSVD<Eigen::MatrixXd>(X).singularValues().minCoeff();
  const auto omega = [](double eps, double delta, int r) {
    return 16 * std::sqrt(r * std::log(2 / delta)) * std::log(16 * r / delta) / eps;
  };
  const auto facts = [&](double eps, int r, curator::Lift lift, const char* name) {
    systems::PoGpUcbConfig c;
    c.name = name;
    c.curator = {eps, 1e-5, r, lift};
    std::map<std::string, std::string> m;
    for (const auto& [k, v] : systems::PoGpUcbSystem(c).run_facts(ai)) m[k] = v;
    return m;
  };
  // sigma_min of this grid is about 133, omega(e^1.1, 1e-5, 4) about 583: the else branch.
  auto m = facts(std::exp(1.1), 4, curator::Lift::paper, "po_gp_ucb");
  REQUIRE(m.size() == 4);
  CHECK(std::stod(m["curator.sigma_min"]) == Approx(sigma_min).epsilon(1e-12));
  CHECK(std::stod(m["curator.omega"]) == Approx(omega(std::exp(1.1), 1e-5, 4)).epsilon(1e-12));
  CHECK(m["curator.branch"] == (sigma_min < omega(std::exp(1.1), 1e-5, 4) ? "else" : "if"));
  CHECK(m["curator.branch"] == "else");
  CHECK(m["curator.lift"] == "paper");
  // A large epsilon puts omega below sigma_min: the if branch.
  m = facts(100.0, 4, curator::Lift::authors, "po_gp_ucb");
  REQUIRE(omega(100.0, 1e-5, 4) < sigma_min);
  CHECK(m["curator.branch"] == "if");
  CHECK(m["curator.lift"] == "authors");
  // The baseline releases nothing: no facts, and it does not build the domain.
  protocol::AuditInputs unused;
  unused.domain = []() -> const core::Domain& { throw std::logic_error("built"); };
  CHECK(facts(std::exp(1.1), 4, curator::Lift::paper, "gp_ucb").empty());
  systems::PoGpUcbConfig base;
  base.name = "gp_ucb";
  CHECK(systems::PoGpUcbSystem(base).run_facts(unused).empty());
}

TEST_CASE("DP-BO (Kusner): candidates, sensitivities, mechanisms and events of the final release") {
  systems::DpBoConfig c;
  c.per_axis = 5;
  c.ucb.hyper = {0.3, 1.0, 1e-3};
  c.epsilon = 2;
  c.delta = 1e-3;
  c.neighbour_kernel = 0.98;
  const systems::DpBoSystem sys(c);
  core::Domain box;
  box.dim = 2;
  const Eigen::MatrixXd L = sys.candidates(box);
  REQUIRE(L.rows() == 25);
  CHECK(L.row(0) == Eigen::RowVector2d(0, 0));
  CHECK(L.row(1) == Eigen::RowVector2d(0.25, 0));
  CHECK(L.row(24) == Eigen::RowVector2d(1, 1));
  CHECK(sys.possible_events(2) ==
        std::vector<privacy::DpEvent>(4, privacy::DpEvent::epsilon_delta(2, 1e-3)));
  const core::RngFactory rf(9, 0);
  protocol::RunParts parts = sys.build({0, 2, &box, &rf, nullptr});
  REQUIRE(parts.final_release);
  drive(parts, rf, 9);
  int evaluations = 0;
  protocol::ReleaseInputs in;
  in.streams = &rf;
  in.evaluate = [&](int, const Eigen::VectorXd& x) {
    ++evaluations;
    return f_of(x);
  };
  in.query = [](int, const Eigen::VectorXd&, core::RngStream&) -> protocol::Observation {
    FAIL("the Kusner release spends no evaluations");
    return {0, 0};
  };
  in.optimum = [](int) { return std::optional<double>(); };
  const protocol::FinalRelease out = parts.final_release(in);
  CHECK(out.events == sys.possible_events(2));
  REQUIRE(out.rows.size() == 8);  // per agent: hyperparameter, value, two references
  release::KusnerSetting s;
  s.candidates = 25;
  s.observations = 10;
  s.delta = 1e-3;
  s.sigma1 = std::sqrt(2 - 2 * 0.98);
  s.noise_var = 1e-3;
  const double c_h = release::hyperparameter_sensitivity(s);
  const double c_v =
      release::value_sensitivity(s, release::information_gain_bound(L, 0.3, 1e-3, 10));
  for (int n = 0; n < 2; ++n) {
    const auto& agent = dynamic_cast<const agents::GpUcbAgent&>(*parts.agents[n]);
    const protocol::ReleaseRow& h = out.rows[4 * n];
    const protocol::ReleaseRow& v = out.rows[4 * n + 1];
    const protocol::ReleaseRow& ref_h = out.rows[4 * n + 2];
    const protocol::ReleaseRow& ref_v = out.rows[4 * n + 3];
    CHECK(h.agent == n);
    CHECK(h.mechanism == "exponential");
    CHECK(*h.epsilon == 2);
    CHECK(*h.delta == 1e-3);
    CHECK(*h.sensitivity == Approx(c_h).epsilon(1e-14));
    CHECK(*h.point == L.row(static_cast<Eigen::Index>(h.value)).transpose());
    CHECK(*h.f == f_of(*h.point));
    Eigen::Index best = 0;
    agent.posterior().mean().maxCoeff(&best);
    CHECK(*h.nonprivate == best);
    CHECK(v.mechanism == "laplace");
    CHECK(*v.sensitivity == Approx(c_v).epsilon(1e-12));
    const double y_star =
        *std::max_element(agent.observations().begin(), agent.observations().end());
    CHECK(*v.nonprivate == y_star);
    CHECK(v.value != y_star);  // noise was added
    CHECK(ref_h.mechanism == "none");
    CHECK(ref_h.value == best);
    CHECK(ref_v.value == y_star);
    CHECK_FALSE(ref_v.epsilon.has_value());
  }
  // The audited releases (`fbosim audit`) are these two, with the sensitivities of this run
  // (init_points + rounds observations) and the events it charges.
  protocol::AuditInputs ai;
  ai.agents = 2;
  ai.rounds = 9;
  ai.domain = [&]() -> const core::Domain& { return box; };
  const auto audited = sys.auditable_releases(ai);
  REQUIRE(audited.size() == 2);
  const auto sensitivity = [](const protocol::AuditableRelease& r) {
    for (const auto& [k, v] : r.details())
      if (k == "sensitivity") return std::stod(v);
    return -1.0;
  };
  CHECK(sensitivity(*audited[0]) == Approx(*out.rows[0].sensitivity).epsilon(1e-15));
  CHECK(sensitivity(*audited[1]) == Approx(*out.rows[1].sensitivity).epsilon(1e-15));
  CHECK(audited[0]->event() == out.events[0]);
  CHECK(audited[1]->event() == out.events[1]);
  // The noise-free value release cannot run without de Freitas et al.'s constants.
  c.observations = systems::Observations::noise_free;
  CHECK_THROWS_WITH(systems::DpBoSystem(c), Catch::Matchers::Contains("de Freitas"));
}

TEST_CASE(
    "DP-BO (Papernot & Steinke): calibrated to the target, K evaluations on the private "
    "data, one RepeatAndSelect event") {
  systems::DpBoConfig c;
  c.mechanism = systems::ReleaseMechanism::papernot_steinke;
  c.ucb.hyper = {0.3, 1.0, 1e-3};
  c.epsilon = 1;
  c.delta = 1e-5;
  c.selection.mean = 8;
  c.selection.shape = 1;
  c.selection.sensitivity = 0.05;
  const systems::DpBoSystem sys(c);
  const auto events = sys.agent_events();
  REQUIRE(events.size() == 1);
  auto rdp = privacy::make_accountant("rdp");
  rdp->compose(events[0]);
  CHECK(rdp->epsilon(1e-5).epsilon <= 1);
  CHECK(rdp->epsilon(1e-5).epsilon == Approx(1).epsilon(1e-5));
  const core::Domain d = square_grid(6);
  const core::RngFactory rf(2, 0);
  protocol::RunParts parts = sys.build({0, 1, &d, &rf, nullptr});
  drive(parts, rf, 4);
  int queries = 0;
  protocol::ReleaseInputs in;
  in.streams = &rf;
  in.evaluate = [](int, const Eigen::VectorXd& x) { return f_of(x); };
  in.query = [&](int, const Eigen::VectorXd& x, core::RngStream&) {
    ++queries;
    return protocol::Observation{f_of(x), f_of(x)};
  };
  in.optimum = [](int) { return std::optional<double>(0.0); };
  const protocol::FinalRelease out = parts.final_release(in);
  CHECK(out.events == events);
  REQUIRE(out.rows.size() == 4);
  CHECK(out.rows[0].mechanism == "papernot_steinke");
  CHECK(out.rows[0].evaluations == queries);
  CHECK(queries >= 1);
  CHECK(*out.rows[0].regret == Approx(-*out.rows[0].f));
  CHECK(*out.rows[1].sensitivity == 0.05);
}

TEST_CASE(
    "DP-BO (Kusner): the released value's noise is Laplace(c' / epsilon) and the released "
    "point follows exp(epsilon mu / (2 c)), over many releases") {
  // The final release of the same agents, drawn again and again with fresh streams: value -
  // nonprivate must be Laplace with scale b = sensitivity / epsilon (mean 0, E|X| = b, sd of |X|
  // = b, sd of X = sqrt(2) b), the point index must follow the exponential mechanism's closed
  // form (each candidate's frequency, and the mean of mu at the released point, the sharper
  // statistic). A scale of sensitivity * epsilon or sensitivity / (2 epsilon), or the exponential
  // mechanism at 2 epsilon, fails at one of these epsilons by more than 4 standard errors.
  for (const double eps : {0.5, 4.0, 30.0}) {
    INFO("epsilon " << eps);
    systems::DpBoConfig c;
    c.per_axis = 5;
    c.ucb.hyper = {0.3, 1.0, 1e-3};
    c.epsilon = eps;
    c.delta = 1e-3;
    const systems::DpBoSystem sys(c);
    core::Domain box;
    box.dim = 2;
    const Eigen::MatrixXd L = sys.candidates(box);
    const core::RngFactory rf(9, 0);
    protocol::RunParts parts = sys.build({0, 2, &box, &rf, nullptr});
    drive(parts, rf, 9);
    release::KusnerSetting s;
    s.candidates = 25;
    s.observations = 10;
    s.delta = 1e-3;
    s.sigma1 = std::sqrt(2 - 2 * c.neighbour_kernel);
    s.noise_var = 1e-3;
    const double c_h = release::hyperparameter_sensitivity(s);
    const double b =
        release::value_sensitivity(s, release::information_gain_bound(L, 0.3, 1e-3, 10)) / eps;
    protocol::ReleaseInputs in;
    in.evaluate = [](int, const Eigen::VectorXd& x) { return f_of(x); };
    in.optimum = [](int) { return std::optional<double>(); };
    const int releases = 3000;
    double sum = 0, abs_sum = 0;
    int draws = 0;
    std::vector<Eigen::VectorXd> counts(2, Eigen::VectorXd::Zero(25));
    for (int k = 0; k < releases; ++k) {
      const core::RngFactory streams(1000 + static_cast<std::uint64_t>(k), 0);
      in.streams = &streams;
      const protocol::FinalRelease out = parts.final_release(in);
      REQUIRE(out.events ==
              std::vector<privacy::DpEvent>(4, privacy::DpEvent::epsilon_delta(eps, 1e-3)));
      for (int n = 0; n < 2; ++n) {
        const protocol::ReleaseRow& h = out.rows[4 * n];
        const protocol::ReleaseRow& v = out.rows[4 * n + 1];
        REQUIRE(v.mechanism == "laplace");
        CHECK(*v.sensitivity / *v.epsilon == Approx(b).epsilon(1e-12));
        const double x = v.value - *v.nonprivate;
        sum += x;
        abs_sum += std::abs(x);
        ++draws;
        counts[n][static_cast<Eigen::Index>(h.value)] += 1;
      }
    }
    CHECK(std::abs(sum / draws) < 4 * std::sqrt(2.0) * b / std::sqrt(double(draws)));
    CHECK(std::abs(abs_sum / draws - b) < 4 * b / std::sqrt(double(draws)));
    for (int n = 0; n < 2; ++n) {
      const auto& agent = dynamic_cast<const agents::GpUcbAgent&>(*parts.agents[n]);
      const Eigen::VectorXd& mu = agent.posterior().mean();
      // P[i] proportional to exp(epsilon mu_i / (2 c)), written out here.
      Eigen::ArrayXd p = (eps * (mu.array() - mu.maxCoeff()) / (2 * c_h)).exp();
      p /= p.sum();
      for (Eigen::Index i = 0; i < 25; ++i) {
        INFO("agent " << n << " candidate " << i << " p " << p[i]);
        CHECK(std::abs(counts[n][i] / releases - p[i]) <=
              4 * std::sqrt(p[i] * (1 - p[i]) / releases) + 1e-9);
      }
      const double mean_mu = (p * mu.array()).sum();
      const double sd_mu = std::sqrt((p * (mu.array() - mean_mu).square()).sum());
      CHECK(std::abs(counts[n].dot(mu) / releases - mean_mu) <=
            4 * sd_mu / std::sqrt(double(releases)) + 1e-12);
    }
  }
}

TEST_CASE(
    "DP-BO (Kusner's Algorithm 3): one (epsilon, 0) event per agent, the best value plus "
    "Laplace(Delta / epsilon) over many releases, refused without Assumption 2") {
  // Delta from the certificate, by hand: G (1/0.5 - 1/8) = 1.875, + 2 tau / lmin = 4e-9,
  // times L = 0.25: 0.468750001, + r / m = 1/100: Delta = 0.478750001.
  core::ConvexLipschitzScore cert;
  cert.lambda_min = 0.5;
  cert.lambda_max = 8;
  cert.loss_gradient_bound = 1;
  cert.score_lipschitz = 0.25;
  cert.score_range = 1;
  cert.gradient_tolerance = 1e-9;
  cert.validation_size = 100;
  const double sens = 0.478750001;
  core::Domain line;
  line.dim = 1;
  const auto f1 = [](const Eigen::VectorXd& x) { return -std::pow(x[0] - 0.3, 2); };
  for (const double eps : {0.5, 4.0}) {
    INFO("epsilon " << eps);
    systems::DpBoConfig c;
    c.mechanism = systems::ReleaseMechanism::kusner_lipschitz;
    c.hyperparameter = false;
    c.per_axis = 9;
    c.ucb.hyper = {0.3, 1.0, 1e-3};
    c.epsilon = eps;
    const systems::DpBoSystem sys(c);
    CHECK(sys.possible_events(2) ==
          std::vector<privacy::DpEvent>(2, privacy::DpEvent::epsilon_delta(eps, 0)));
    const core::RngFactory rf(4, 0);
    protocol::RunParts parts = sys.build({0, 2, &line, &rf, nullptr});
    for (std::size_t n = 0; n < 2; ++n) {  // round 0 and 6 GP-UCB steps, observing f1 exactly
      auto& a = *parts.agents[n];
      core::RngStream init = rf.stream("agent.init", n);
      for (const Eigen::VectorXd& x : a.initial_points(init)) a.observe(x, f1(x));
      for (int t = 1; t <= 6; ++t) {
        core::RngStream rng = rf.stream("agent.step", n, static_cast<std::uint64_t>(t));
        const Eigen::VectorXd x = a.propose(t, protocol::NoBroadcast{}, rng, rf).x;
        a.observe(x, f1(x));
      }
    }
    protocol::ReleaseInputs in;
    in.evaluate = [&](int, const Eigen::VectorXd& x) { return f1(x); };
    in.query = [](int, const Eigen::VectorXd&, core::RngStream&) -> protocol::Observation {
      FAIL("Algorithm 3's release spends no evaluations");
      return {0, 0};
    };
    in.optimum = [](int) { return std::optional<double>(); };
    in.convex_lipschitz_score = [&](int) {
      return std::optional<core::ConvexLipschitzScore>(cert);
    };
    const double b = sens / eps;
    const int releases = 4000;
    double sum = 0, abs_sum = 0, sq_sum = 0;
    int draws = 0;
    for (int k = 0; k < releases; ++k) {
      const core::RngFactory streams(500 + static_cast<std::uint64_t>(k), 0);
      in.streams = &streams;
      const protocol::FinalRelease out = parts.final_release(in);
      REQUIRE(out.events == sys.possible_events(2));
      REQUIRE(out.rows.size() == 6);  // per agent: the value, then the two references
      for (int n = 0; n < 2; ++n) {
        const protocol::ReleaseRow& v = out.rows[3 * n];
        REQUIRE(v.quantity == "best_value");
        REQUIRE(v.mechanism == "laplace");
        REQUIRE(*v.epsilon == eps);
        REQUIRE(*v.delta == 0);
        REQUIRE(*v.sensitivity == Approx(sens).epsilon(1e-14));
        const auto& agent = dynamic_cast<const agents::GpUcbAgent&>(*parts.agents[n]);
        REQUIRE(*v.nonprivate ==
                *std::max_element(agent.observations().begin(), agent.observations().end()));
        REQUIRE(out.rows[3 * n + 1].mechanism == "none");
        const double x = v.value - *v.nonprivate;
        sum += x;
        abs_sum += std::abs(x);
        sq_sum += x * x;
        ++draws;
      }
    }
    // Laplace(b): mean 0 (sd sqrt(2) b), E|X| = b (sd b), E X^2 = 2 b^2 (sd sqrt(20) b^2). A
    // scale of Delta epsilon, 2 Delta / epsilon or Delta / (2 epsilon) fails by far more than 4
    // standard errors.
    const double n = draws;
    CHECK(std::abs(sum / n) < 4 * std::sqrt(2.0) * b / std::sqrt(n));
    CHECK(std::abs(abs_sum / n - b) < 4 * b / std::sqrt(n));
    CHECK(std::abs(sq_sum / n - 2 * b * b) < 4 * std::sqrt(20.0) * b * b / std::sqrt(n));
    // `fbosim audit` audits this Laplace release with the same sensitivity and event.
    protocol::AuditInputs ai;
    ai.agents = 2;
    ai.rounds = 6;
    ai.domain = [&]() -> const core::Domain& { return line; };
    ai.convex_lipschitz_score = [&]() { return std::optional<core::ConvexLipschitzScore>(cert); };
    const auto audited = sys.auditable_releases(ai);
    REQUIRE(audited.size() == 1);
    CHECK(audited[0]->event() == privacy::DpEvent::epsilon_delta(eps, 0));
    bool found = false;
    for (const auto& [key, value] : audited[0]->details())
      if (key == "sensitivity") found = std::stod(value) == Approx(sens).epsilon(1e-9);
    CHECK(found);
    // An objective that certifies nothing: no sensitivity, no release.
    in.convex_lipschitz_score = [](int) { return std::optional<core::ConvexLipschitzScore>(); };
    CHECK_THROWS_WITH(parts.final_release(in), Catch::Matchers::Contains("Assumption 2"));
    ai.convex_lipschitz_score = nullptr;
    CHECK_THROWS_WITH(sys.auditable_releases(ai), Catch::Matchers::Contains("Assumption 2"));
  }
  // Algorithm 3 releases no hyperparameter.
  systems::DpBoConfig c;
  c.mechanism = systems::ReleaseMechanism::kusner_lipschitz;
  CHECK_THROWS_WITH(systems::DpBoSystem(c), Catch::Matchers::Contains("release.hyperparameter"));
}

// ---- gp.mean (issue 29): the constant prior mean in PO-GP-UCB, GP-UCB and DP-BO ----

namespace {

// An irregular objective: no two grid rows tie (a symmetric f on a symmetric grid leaves UCB
// scores that tie up to rounding, and the order of an argmax's ties is not what is tested).
double rough(const Eigen::VectorXd& x) {
  return std::sin(7.3 * x[0] + 2.9 * x[1] * x[1]) + 0.7 * std::cos(11.1 * x[1] - 3.7 * x[0]);
}

// Round 0 and `rounds` steps of every agent, observing f + offset exactly.
void drive_offset(protocol::RunParts& parts, const core::RngFactory& rf, int rounds, double offset,
                  double (*f)(const Eigen::VectorXd&) = f_of) {
  for (std::size_t n = 0; n < parts.agents.size(); ++n) {
    auto& a = *parts.agents[n];
    core::RngStream init = rf.stream("agent.init", n);
    for (const Eigen::VectorXd& x : a.initial_points(init)) a.observe(x, f(x) + offset);
    for (int t = 1; t <= rounds; ++t) {
      core::RngStream rng = rf.stream("agent.step", n, static_cast<std::uint64_t>(t));
      const Eigen::VectorXd x = a.propose(t, protocol::NoBroadcast{}, rng, rf).x;
      a.observe(x, f(x) + offset);
    }
  }
}

const agents::GpUcbAgent& ucb_agent(const protocol::RunParts& parts, std::size_t n) {
  return dynamic_cast<const agents::GpUcbAgent&>(*parts.agents[n]);
}

// The posterior mean with prior mean m at every row of C, the model's inputs of the queried
// rows being C.row(q[i]): m + k(C_q, C)^T (K + s2 I)^-1 (y - m), solved densely.
Eigen::VectorXd dense_mean(const Eigen::MatrixXd& C, const std::vector<Eigen::Index>& q,
                           const std::vector<double>& ys, const gp::SeHyper& h, double m) {
  const auto n = static_cast<Eigen::Index>(q.size());
  auto k = [&](Eigen::Index i, Eigen::Index j) {
    return h.signal_var *
           std::exp(-(C.row(i) - C.row(j)).squaredNorm() / (2 * h.lengthscale * h.lengthscale));
  };
  Eigen::MatrixXd K(n, n), Ks(n, C.rows());
  Eigen::VectorXd r(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    r[i] = ys[static_cast<std::size_t>(i)] - m;
    for (Eigen::Index j = 0; j < n; ++j)
      K(i, j) = k(q[i], q[j]) + (i == j ? h.noise_var + 1e-10 * h.signal_var : 0.0);
    for (Eigen::Index c = 0; c < C.rows(); ++c) Ks(i, c) = k(q[i], c);
  }
  return (Ks.transpose() * K.ldlt().solve(r)).array() + m;
}

}  // namespace

TEST_CASE("gp.mean is a key of po_gp_ucb, gp_ucb and dp_bo, read into the GP-UCB's options") {
  systems::PoGpUcbConfig po;
  REQUIRE(systems::po_gp_ucb_keys().has("gp.mean"));
  systems::po_gp_ucb_keys().set(po, "gp.mean", schema::Value(-54.3));
  CHECK(po.ucb.prior_mean == -54.3);
  systems::DpBoConfig bo;
  REQUIRE(systems::dp_bo_keys().has("gp.mean"));
  systems::dp_bo_keys().set(bo, "gp.mean", schema::Value(0.5));
  CHECK(bo.ucb.prior_mean == 0.5);
  // The default keeps the papers' zero-mean GP.
  CHECK(systems::PoGpUcbConfig{}.ucb.prior_mean == 0);
  CHECK(systems::DpBoConfig{}.ucb.prior_mean == 0);
}

TEST_CASE(
    "PO-GP-UCB with gp.mean m: the posterior on the released Z is m + the zero-mean one on "
    "y - m, so a run on f + m with mean m queries the rows of a run on f with mean 0") {
  const core::Domain d = square_grid(10);
  const core::RngFactory rf(5, 2);
  const double m = -3.25;
  for (const char* name : {"po_gp_ucb", "gp_ucb"}) {
    INFO(name);
    systems::PoGpUcbConfig c;
    c.name = name;
    c.curator = {std::exp(1.1), 1e-5, 4, curator::Lift::paper};
    c.ucb.init_points = 2;
    c.ucb.hyper = {6.25, 1.0, 1e-5};
    systems::PoGpUcbConfig cm = c;
    cm.ucb.prior_mean = m;
    protocol::RunParts zero = systems::PoGpUcbSystem(c).build({1, 2, &d, &rf, nullptr});
    protocol::RunParts with_m = systems::PoGpUcbSystem(cm).build({1, 2, &d, &rf, nullptr});
    drive_offset(zero, rf, 12, 0.0, rough);
    drive_offset(with_m, rf, 12, m, rough);
    for (std::size_t n = 0; n < 2; ++n) {
      const agents::GpUcbAgent& a0 = ucb_agent(zero, n);
      const agents::GpUcbAgent& am = ucb_agent(with_m, n);
      CHECK(am.queried() == a0.queried());
      // The model's inputs are the curator's output (Z for po_gp_ucb, the normalised X for
      // gp_ucb), recomputed here from its stream: the prior mean acts on the outputs only.
      Eigen::MatrixXd C = curator::normalise(d.grid, 25).X;
      if (std::string(name) == "po_gp_ucb") {
        core::RngStream rng = rf.stream("curator", n);
        C = curator::release(C, c.curator, rng).Z;
      }
      REQUIRE((am.posterior().candidates() - C).norm() == 0);
      const Eigen::VectorXd want = dense_mean(C, am.queried(), am.observations(), c.ucb.hyper, m);
      CHECK((am.posterior().mean() - want).cwiseAbs().maxCoeff() < 1e-7);
      CHECK((am.posterior().mean().array() - m - a0.posterior().mean().array()).abs().maxCoeff() <
            1e-9);
      // Ignoring the mean would leave the prior mean 0 far above the observations (m +- 1.7):
      // the posterior away from the data would then be near 0, not m.
      CHECK(
          (am.posterior().mean() - dense_mean(C, am.queried(), am.observations(), c.ucb.hyper, 0.0))
              .cwiseAbs()
              .maxCoeff() > 1);
    }
  }
}

TEST_CASE(
    "DP-BO with gp.mean m: mu_T is m + the zero-mean mu_T on y - m, and the release's "
    "sensitivities and reference rows are those of mean 0 on f") {
  systems::DpBoConfig c;
  c.per_axis = 6;
  c.ucb.hyper = {0.3, 1.0, 1e-3};
  c.epsilon = 2;
  systems::DpBoConfig cm = c;
  const double m = 0.75;
  cm.ucb.prior_mean = m;
  const systems::DpBoSystem zero_sys(c), m_sys(cm);
  core::Domain box;
  box.dim = 2;
  const core::RngFactory rf(4, 0);
  protocol::RunParts zero = zero_sys.build({0, 1, &box, &rf, nullptr});
  protocol::RunParts with_m = m_sys.build({0, 1, &box, &rf, nullptr});
  drive_offset(zero, rf, 10, 0.0);
  drive_offset(with_m, rf, 10, m);
  const agents::GpUcbAgent& a0 = ucb_agent(zero, 0);
  const agents::GpUcbAgent& am = ucb_agent(with_m, 0);
  CHECK(am.queried() == a0.queried());
  const Eigen::MatrixXd L = m_sys.candidates(box);
  gp::SeHyper h = cm.ucb.hyper;
  h.signal_var = 1;  // Kusner et al.'s normalised kernel
  CHECK((am.posterior().mean() - dense_mean(L, am.queried(), am.observations(), h, m))
            .cwiseAbs()
            .maxCoeff() < 1e-7);
  CHECK((am.posterior().mean().array() - m - a0.posterior().mean().array()).abs().maxCoeff() <
        1e-9);
  auto release = [&](protocol::RunParts& parts, double offset) {
    protocol::ReleaseInputs in;
    in.streams = &rf;
    in.evaluate = [offset](int, const Eigen::VectorXd& x) { return f_of(x) + offset; };
    in.query = [](int, const Eigen::VectorXd&, core::RngStream&) -> protocol::Observation {
      FAIL("the Kusner release spends no evaluations");
      return {0, 0};
    };
    in.optimum = [](int) { return std::optional<double>(); };
    return parts.final_release(in);
  };
  const protocol::FinalRelease r0 = release(zero, 0.0), rm = release(with_m, m);
  REQUIRE(r0.rows.size() == 4);
  REQUIRE(rm.rows.size() == 4);
  CHECK(rm.events == r0.events);
  for (std::size_t i = 0; i < 2; ++i) CHECK(*rm.rows[i].sensitivity == *r0.rows[i].sensitivity);
  CHECK(rm.rows[2].value == r0.rows[2].value);  // argmax mu_T, the reference hyperparameter
  CHECK(rm.rows[3].value == Approx(r0.rows[3].value + m).epsilon(1e-14));  // max_t y_t
}

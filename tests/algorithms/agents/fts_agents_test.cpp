#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "../grid_domain.hpp"
#include "algorithms/acquisition/direct_maximiser.hpp"
#include "algorithms/agents/fts_source_agent.hpp"
#include "algorithms/agents/fts_target_agent.hpp"

using namespace fbosim;
using agents::ExplorationSchedule;
using testing::grid_domain;

namespace {
std::shared_ptr<const agents::SharedContext> context(const core::Domain& d, int M, double l) {
  core::RngStream rng(21);
  return std::make_shared<const agents::SharedContext>(
      d, rff::RandomFeatures::draw(d.dim, M, l, 1.0, rng), de::Partition(d.dim, 1));
}

// omega whose phi(x) . omega peaks at grid row j: the least-squares fit of a narrow bump.
Eigen::VectorXd peak_at(const agents::SharedContext& ctx, Eigen::Index j) {
  const Eigen::MatrixXd& Phi = ctx.grid_features;
  Eigen::VectorXd target = Eigen::VectorXd::Zero(Phi.rows());
  target[j] = 1.0;
  const Eigen::MatrixXd A =
      Phi.transpose() * Phi + 1e-8 * Eigen::MatrixXd::Identity(Phi.cols(), Phi.cols());
  return A.ldlt().solve(Phi.transpose() * target);
}

protocol::PeerMessages peers(const std::vector<Eigen::VectorXd>& omegas) {
  protocol::PeerMessages b;
  b.messages.push_back(nullptr);  // agent 0 is the target
  for (const auto& w : omegas)
    b.messages.push_back(std::make_shared<const protocol::Message>(protocol::RffSample{w}));
  return b;
}

// The brute-force argmax of phi(x) . omega over the grid, with the plain feature map.
double brute_argmax(const agents::SharedContext& ctx, const Eigen::VectorXd& omega) {
  const Eigen::VectorXd v = ctx.features.features(ctx.domain.grid) * omega;
  Eigen::Index j = 0;
  v.maxCoeff(&j);
  return ctx.domain.grid(j, 0);
}
}  // namespace

TEST_CASE("FTS p_t: p_1 = p_2 and the schedules of sec. 5") {
  using agents::fts_own_probability;
  CHECK(fts_own_probability(ExplorationSchedule::inv_sqrt, 1) == Approx(1 - 1 / std::sqrt(2.0)));
  CHECK(fts_own_probability(ExplorationSchedule::inv_sqrt, 2) == Approx(0.29289321881));
  CHECK(fts_own_probability(ExplorationSchedule::inv_sqrt, 3) == Approx(0.42264973081));
  CHECK(fts_own_probability(ExplorationSchedule::inv_square, 1) == Approx(0.75));
  CHECK(fts_own_probability(ExplorationSchedule::inv_square, 3) == Approx(8.0 / 9));
  CHECK(fts_own_probability(ExplorationSchedule::inv_square, 4) == Approx(15.0 / 16));
  CHECK(fts_own_probability(ExplorationSchedule::inv, 1) == Approx(0.5));
  CHECK(fts_own_probability(ExplorationSchedule::local, 1) == 1.0);
}

TEST_CASE("a peer step maximises one source's sample over the grid") {
  const core::Domain d = grid_domain(500);
  auto ctx = context(d, 40, 0.05);
  agents::FtsTargetOptions o;
  o.schedule = ExplorationSchedule::inv;  // p_1 = 0.5
  core::RngStream gen(5);
  const Eigen::VectorXd omega = gen.normal_vector(40);
  const double expected = brute_argmax(*ctx, omega);
  int peer = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    agents::FtsTargetAgent a(0, ctx, o);
    a.observe(Eigen::VectorXd::Constant(1, 0.123), 0.0);
    core::RngStream rng(seed);
    const core::RngFactory streams(1, seed);
    const protocol::Proposal p = a.propose(1, peers({omega}), rng, streams);
    if (std::string(p.source) != "peer") continue;
    ++peer;
    CHECK(p.x[0] == Approx(expected).margin(1e-12));
  }
  CHECK(peer > 3);  // about half of the 20 coins
}

TEST_CASE("acquisition.method direct: a peer step on a box is DIRECT's maximiser of the sample") {
  core::Domain d;
  d.dim = 2;
  auto ctx = context(d, 40, 0.2);
  agents::FtsTargetOptions o;
  o.schedule = ExplorationSchedule::inv;  // p_1 = 0.5
  o.local.acquisition.method = acq::Method::direct;
  o.local.acquisition.direct.max_evaluations = 2000;
  core::RngStream gen(5);
  const Eigen::VectorXd omega = gen.normal_vector(40);
  const Eigen::VectorXd expected = acq::DirectMaximiser(o.local.acquisition.direct)
                                       .maximise(ctx->features, omega, core::Box::unit(2))
                                       .x;
  int peer = 0;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    agents::FtsTargetAgent a(0, ctx, o);
    a.observe(Eigen::Vector2d(0.123, 0.456), 0.0);
    core::RngStream rng(seed);
    const core::RngFactory streams(1, seed);
    const protocol::Proposal p = a.propose(1, peers({omega}), rng, streams);
    if (std::string(p.source) != "peer") continue;
    ++peer;
    CHECK(p.x == expected);
  }
  CHECK(peer > 2);
}

TEST_CASE("simple setting: each source's sample is used once, then only own steps") {
  const core::Domain d = grid_domain(400);
  auto ctx = context(d, 60, 0.05);
  std::vector<Eigen::VectorXd> omegas;
  std::set<double> peaks;
  for (Eigen::Index j : {40, 120, 200, 280, 360}) {
    omegas.push_back(peak_at(*ctx, j));
    peaks.insert(brute_argmax(*ctx, omegas.back()));
  }
  REQUIRE(peaks.size() == 5);
  agents::FtsTargetOptions o;
  o.schedule = ExplorationSchedule::inv;
  agents::FtsTargetAgent a(0, ctx, o);
  a.observe(Eigen::VectorXd::Constant(1, 0.5), 0.0);
  core::RngStream rng(9);
  const core::RngFactory streams(2, 0);
  std::multiset<double> used;
  protocol::Broadcast b = peers(omegas);
  int t = 1;
  // P(a peer step) = 1/t: sum 1/t diverges, so every source is used eventually.
  for (; t <= 3000 && (t == 1 || !a.available().empty()); ++t) {
    const protocol::Proposal p = a.propose(t, b, rng, streams);
    b = protocol::NoBroadcast{};  // the messages arrive once, before iteration 1
    if (std::string(p.source) != "peer") continue;
    used.insert(p.x[0]);
    a.observe(p.x, 0.0);
  }
  for (int k = 0; k < 50; ++k, ++t)  // afterwards only own steps
    CHECK(std::string(a.propose(t, b, rng, streams).source) == "local");
  CHECK(used.size() == 5);
  CHECK(std::set<double>(used.begin(), used.end()) == peaks);
  CHECK(a.available().empty());
  CHECK(a.peer_steps() == 5);
}

TEST_CASE("general setting: sources stay in P_N and the latest sample is used") {
  const core::Domain d = grid_domain(300);
  auto ctx = context(d, 40, 0.05);
  agents::FtsTargetOptions o;
  o.schedule = ExplorationSchedule::inv;
  o.reuse_sources = true;
  agents::FtsTargetAgent a(0, ctx, o);
  core::RngStream rng(10), gen(11);
  const core::RngFactory streams(3, 0);
  int peer = 0;
  for (int t = 1; t <= 8; ++t) {
    const Eigen::VectorXd omega = gen.normal_vector(40);  // a fresh sample every round
    const protocol::Proposal p = a.propose(t, peers({omega}), rng, streams);
    if (std::string(p.source) == "peer") {
      ++peer;
      CHECK(p.x[0] == Approx(brute_argmax(*ctx, omega)).margin(1e-12));
    }
    a.observe(p.x, 0.0);
    CHECK(a.available().size() == 1);
  }
  CHECK(peer >= 2);  // one source used more than once (P(fewer than 2 of 8) is tiny)
}

namespace {
// |count - n p| within 4.5 binomial standard deviations (two-sided, about 7e-6 per check).
void check_binomial(int count, int n, double p) {
  INFO("count " << count << " of " << n << " at p = " << p);
  CHECK(std::abs(count - n * p) <= 4.5 * std::sqrt(n * p * (1 - p)));
}
}  // namespace

TEST_CASE("draw_source: P_N's frequencies, renormalised over the available sources") {
  const std::vector<double> w{7.0, 0.5, 0.3, 0.2, 0.0};  // agent 0 (the target) is not offered
  core::RngStream rng(31);
  const int n = 20000;
  std::vector<int> count(5, 0);
  for (int k = 0; k < n; ++k) ++count[agents::draw_source({1, 2, 3, 4}, w, rng)];
  check_binomial(count[1], n, 0.5);
  check_binomial(count[2], n, 0.3);
  check_binomial(count[3], n, 0.2);
  CHECK(count[0] == 0);
  CHECK(count[4] == 0);  // weight 0: a straggler, never chosen
  // Source 1 used (simple setting): P_N renormalised over 2 and 3, 0.6 and 0.4.
  std::vector<int> rest(5, 0);
  for (int k = 0; k < n; ++k) ++rest[agents::draw_source({2, 3, 4}, w, rng)];
  check_binomial(rest[2], n, 0.6);
  check_binomial(rest[3], n, 0.4);
  CHECK(rest[4] == 0);
  // Only sources of weight 0 left, or none: no draw, line 4's own step.
  core::RngStream a(5), b(5);
  CHECK(agents::draw_source({4}, w, a) == -1);
  CHECK(agents::draw_source({}, w, a) == -1);
  CHECK(a.uniform() == b.uniform());
  // Uniform (no weights): exactly one uniform_int draw, as before the key existed.
  for (int k = 0; k < 50; ++k) {
    const std::vector<int> avail{1, 3, 4, 7, 9};
    CHECK(agents::draw_source(avail, {}, a) == avail[b.uniform_int(avail.size())]);
  }
}

TEST_CASE("target.source_weights: the target's peer steps follow P_N") {
  const core::Domain d = grid_domain(300);
  auto ctx = context(d, 60, 0.05);
  std::vector<Eigen::VectorXd> omegas;
  std::vector<double> peak;  // the grid point each source's sample peaks at
  for (Eigen::Index j : {30, 100, 170, 240}) {
    omegas.push_back(peak_at(*ctx, j));
    peak.push_back(brute_argmax(*ctx, omegas.back()));
  }
  REQUIRE(std::set<double>(peak.begin(), peak.end()).size() == 4);
  agents::FtsTargetOptions o;
  o.schedule = ExplorationSchedule::inv;  // p_1 = 0.5
  o.reuse_sources = true;                 // the general setting: every step draws from all of P_N
  o.local.features = 20;
  o.source_weights = {0.0, 0.1, 0.6, 0.0, 0.3};  // agents 1..4 are the sources
  agents::FtsTargetAgent a(0, ctx, o);
  a.observe(Eigen::VectorXd::Constant(1, 0.999), 0.0);
  core::RngStream rng(12);
  const core::RngFactory streams(4, 0);
  const protocol::Broadcast b = peers(omegas);
  std::vector<int> count(4, 0);
  int peer = 0;
  for (int k = 0; k < 3000; ++k) {
    const protocol::Proposal p = a.propose(1, b, rng, streams);
    if (std::string(p.source) != "peer") continue;
    ++peer;
    const auto it = std::find(peak.begin(), peak.end(), p.x[0]);
    REQUIRE(it != peak.end());
    ++count[static_cast<std::size_t>(it - peak.begin())];
  }
  check_binomial(peer, 3000, 0.5);
  check_binomial(count[0], peer, 0.1);
  check_binomial(count[1], peer, 0.6);
  CHECK(count[2] == 0);
  check_binomial(count[3], peer, 0.3);
}

TEST_CASE("the FTS target refuses a posterior summary: it needs samples") {
  auto ctx = context(grid_domain(50), 10, 0.1);
  agents::FtsTargetAgent a(0, ctx, {});
  protocol::PeerMessages b;
  b.messages = {nullptr, std::make_shared<const protocol::Message>(protocol::GpSummary{
                             Eigen::VectorXd::Zero(10), Eigen::MatrixXd::Identity(10, 10), {}})};
  core::RngStream rng(1);
  const core::RngFactory streams(1, 0);
  CHECK_THROWS_WITH(a.propose(1, b, rng, streams), Catch::Contains("summary"));
}

namespace {
// The posterior of eqs. 2-3 computed independently: Sigma = Phi^T Phi + lambda I,
// nu = Sigma^-1 Phi^T y.
struct Posterior {
  Eigen::VectorXd nu;
  Eigen::MatrixXd sigma_inverse;
};
Posterior posterior(const agents::SharedContext& ctx, const protocol::History& h, double lambda) {
  const Eigen::MatrixXd Phi = ctx.features.features(h.X);
  const Eigen::Index M = Phi.cols();
  const Eigen::MatrixXd sigma = Phi.transpose() * Phi + lambda * Eigen::MatrixXd::Identity(M, M);
  const Eigen::MatrixXd inv = sigma.inverse();
  return {inv * Phi.transpose() * h.y, inv};
}

protocol::History history(int n, std::uint64_t seed) {
  core::RngStream rng(seed);
  protocol::History h{Eigen::MatrixXd(n, 2), Eigen::VectorXd(n)};
  for (int k = 0; k < n; ++k) {
    h.X.row(k) << rng.uniform(), rng.uniform();
    h.y[k] = std::sin(4 * h.X(k, 0)) + h.X(k, 1);
  }
  return h;
}
}  // namespace

TEST_CASE("a source's summary is (nu, Sigma^-1) of FTS eqs. 2-3 and its incumbent") {
  core::Domain box;
  box.dim = 2;
  auto ctx = context(box, 12, 0.3);
  const protocol::History own = history(30, 4), message = history(20, 5);
  agents::FtsSourceOptions o;
  o.message = agents::SourceMessage::summary_with_incumbent;
  o.message_lambda = 0.01;
  agents::FtsSourceAgent a(3, ctx, own, message, o);
  CHECK_FALSE(a.optimises());
  core::RngStream rng(1);
  const auto m = a.report(0, rng);
  REQUIRE(m);
  const auto& s = std::get<protocol::GpSummary>(*m);
  const Posterior p = posterior(*ctx, message, 0.01);
  CHECK((s.nu - p.nu).norm() < 1e-8 * p.nu.norm());
  CHECK((s.sigma_inverse - p.sigma_inverse).norm() < 1e-8 * p.sigma_inverse.norm());
  CHECK(*s.incumbent == message.y.maxCoeff());
  CHECK(protocol::message_floats(*m) == 12 + 144 + 1);
  CHECK_FALSE(a.report(1, rng));  // simple setting: one message, before iteration 1
}

TEST_CASE("a source's samples have the posterior mean and covariance lambda Sigma^-1") {
  core::Domain box;
  box.dim = 2;
  auto ctx = context(box, 4, 0.4);
  const protocol::History h = history(6, 7);
  agents::FtsSourceOptions o;
  o.general = true;  // reports every round
  o.message_lambda = 0.05;
  agents::FtsSourceAgent a(1, ctx, h, h, o);
  const Posterior p = posterior(*ctx, h, 0.05);
  const Eigen::MatrixXd cov = 0.05 * p.sigma_inverse;
  const int draws = 40000;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(4);
  Eigen::MatrixXd sum2 = Eigen::MatrixXd::Zero(4, 4);
  core::RngStream rng(3);
  for (int k = 0; k < draws; ++k) {
    const Eigen::VectorXd w = std::get<protocol::RffSample>(*a.report(k, rng)).omega;
    sum += w;
    sum2 += w * w.transpose();
  }
  const Eigen::VectorXd mean = sum / draws;
  const Eigen::MatrixXd c = sum2 / draws - mean * mean.transpose();
  for (int i = 0; i < 4; ++i) {
    CHECK(mean[i] == Approx(p.nu[i]).margin(5 * std::sqrt(cov(i, i) / draws)));
    for (int j = 0; j < 4; ++j)
      CHECK(c(i, j) == Approx(cov(i, j)).margin(0.05 * std::sqrt(cov(i, i) * cov(j, j))));
  }
}

TEST_CASE("a source of the general setting optimises and its messages follow its new data") {
  core::Domain box;
  box.dim = 2;
  auto ctx = context(box, 8, 0.3);
  const protocol::History h = history(10, 8);
  agents::FtsSourceOptions o;
  o.general = true;
  o.message = agents::SourceMessage::summary;
  o.local.maximiser = {50, 2, 10};
  agents::FtsSourceAgent a(2, ctx, h, h, o);
  CHECK(a.optimises());
  CHECK(a.initial_points(*std::make_unique<core::RngStream>(1)).empty());
  core::RngStream rng(4);
  const core::RngFactory streams(1, 0);
  const auto before = std::get<protocol::GpSummary>(*a.report(0, rng)).nu;
  const protocol::Proposal p = a.propose(1, protocol::NoBroadcast{}, rng, streams);
  CHECK(std::string(p.source) == "local");
  CHECK((p.x.array() >= 0).all());
  CHECK((p.x.array() <= 1).all());
  a.observe(p.x, 3.0);
  const auto after = std::get<protocol::GpSummary>(*a.report(1, rng));
  protocol::History grown{Eigen::MatrixXd(11, 2), Eigen::VectorXd(11)};
  grown.X << h.X, p.x.transpose();
  grown.y << h.y, 3.0;
  CHECK((after.nu - posterior(*ctx, grown, o.message_lambda).nu).norm() < 1e-6 * after.nu.norm());
  CHECK((after.nu - before).norm() > 0);
}

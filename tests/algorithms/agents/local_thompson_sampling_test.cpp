// LocalThompson with gp.fit_method: sample and gp.mean (issue 29).
#include <catch2/catch.hpp>

#include <cmath>

#include "../grid_domain.hpp"
#include "algorithms/agents/local_thompson.hpp"

using namespace fbosim;
using agents::LocalThompson;
using agents::LocalTsOptions;
using testing::grid_domain;

namespace {
double objective(const Eigen::VectorXd& x) { return std::sin(12 * x[0]) + 0.3 * x[0] + 2.0; }

// Steps of an agent that observes objective - shift, from fixed streams.
std::vector<Eigen::VectorXd> run(const LocalTsOptions& o, double shift, int steps,
                                 std::vector<gp::SeHyper>* hypers = nullptr) {
  const core::Domain d = grid_domain(201);
  LocalThompson lt(2, d, o);
  const core::RngFactory streams(5, 0);
  for (int i : {20, 90, 170}) {
    const Eigen::VectorXd x = d.grid.row(i).transpose();
    lt.observe(x, objective(x) - shift);
  }
  std::vector<Eigen::VectorXd> xs;
  for (int t = 0; t < steps; ++t) {
    core::RngStream rng = streams.stream("agent.step", 2, static_cast<std::uint64_t>(t));
    const Eigen::VectorXd x = lt.step(rng, streams);
    xs.push_back(x);
    if (hypers) hypers->push_back(lt.hyper());
    lt.observe(x, objective(x) - shift);
  }
  return xs;
}

LocalTsOptions sampling_options() {
  LocalTsOptions o;
  o.fit_hyper = true;
  o.fit_method = agents::FitMethod::sample;
  o.sampler.samples = 40;
  o.sampler.burn_in = 20;
  o.refit_every = 3;
  return o;
}
}  // namespace

TEST_CASE("gp.mean c on y steps as mean 0 on y - c, for every own model") {
  for (const auto model : {agents::OwnModel::rff, agents::OwnModel::exact}) {
    for (const auto redraw : {agents::Redraw::step, agents::Redraw::refit}) {
      LocalTsOptions o = sampling_options();
      o.model = model;
      o.redraw = redraw;
      LocalTsOptions centred = o;
      o.prior_mean = 2.0;
      std::vector<gp::SeHyper> ha, hb;
      const auto a = run(o, 0.0, 12, &ha);
      const auto b = run(centred, 2.0, 12, &hb);
      INFO("model " << agents::to_string(model) << " redraw " << agents::to_string(redraw));
      for (std::size_t t = 0; t < a.size(); ++t) {
        CHECK(a[t] == b[t]);
        CHECK(ha[t].lengthscale == hb[t].lengthscale);
        CHECK(ha[t].noise_var == hb[t].noise_var);
      }
      // Not vacuous: the prior mean changes the model (here its fitted hyperparameters).
      std::vector<gp::SeHyper> hc;
      run(centred, 0.0, 12, &hc);
      CHECK(hc.back().signal_var != ha.back().signal_var);
    }
  }
}

TEST_CASE("gp.fit_method: sample refits on schedule, deterministically, from its own stream") {
  const LocalTsOptions o = sampling_options();
  std::vector<gp::SeHyper> ha, hb, hopt;
  const auto a = run(o, 0.0, 10, &ha);
  const auto b = run(o, 0.0, 10, &hb);
  for (std::size_t t = 0; t < a.size(); ++t) {
    CHECK(a[t] == b[t]);
    CHECK(ha[t].lengthscale == hb[t].lengthscale);
  }
  // First fit at n = 3 (refit_every 3), before step 0: the start values are gone.
  CHECK(ha[0].lengthscale != o.hyper.lengthscale);
  // The fit is the chain's mean on the agent's data with stream "agent.fit_sample"(id, n).
  const core::Domain d = grid_domain(201);
  Eigen::MatrixXd X(3, 1);
  Eigen::VectorXd y(3);
  const int rows[] = {20, 90, 170};
  for (int k = 0; k < 3; ++k) {
    X(k, 0) = d.grid(rows[k], 0);
    y[k] = objective(X.row(k).transpose());
  }
  core::RngStream rng = core::RngFactory(5, 0).stream("agent.fit_sample", 2, 3);
  const gp::KernelHyper want = gp::HyperSampler(o.sampler).sample(
      X, y,
      {gp::KernelFamily::se, Eigen::VectorXd::Constant(1, o.hyper.lengthscale), o.hyper.signal_var,
       o.hyper.noise_var},
      rng);
  CHECK(ha[0].lengthscale == want.lengthscales[0]);
  CHECK(ha[0].signal_var == want.signal_var);
  CHECK(ha[0].noise_var == want.noise_var);
  // optimise (the default) gives other hyperparameters.
  LocalTsOptions opt = o;
  opt.fit_method = agents::FitMethod::optimise;
  run(opt, 0.0, 10, &hopt);
  CHECK(hopt[0].lengthscale != ha[0].lengthscale);
}

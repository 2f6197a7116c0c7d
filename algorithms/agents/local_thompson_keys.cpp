#include "algorithms/agents/agent_options.hpp"
#include "algorithms/agents/local_thompson.hpp"
#include "algorithms/protocol/algorithm_entry.hpp"
#include "schema/group.hpp"

namespace fbosim::agents {

const schema::Group<LocalTsOptions>& local_ts_keys() {
  using L = LocalTsOptions;
  using schema::at;
  using schema::Range;
  static const auto g =
      schema::Group<L>{}
          .choice("local_ts.method", &L::model, kOwnModelNames,
                  "the own TS step: `rff` (fresh random features, as the authors' code) or "
                  "`exact` (one joint sample of the exact GP posterior on every point of the "
                  "domain, as the papers' text; finite domains only: a grid family, `branin` "
                  "with a grid, `table`) [choice]. On an equally spaced 1-D grid an exact sample "
                  "costs O(G log G + n^2) (circulant embedding of the prior and Matheron's rule) "
                  "instead of O(G^3)")
          .integer("local_ts.features", &L::features, Range::closed(1, 100000),
                   "M_target, fresh features of a local TS step [code]")
          .choice("local_ts.redraw", &L::redraw, kRedrawNames,
                  "when the RFF model of a local TS step draws its features: `step` is the "
                  "authors' code (fresh features each step); `refit` keeps each agent's features "
                  "until its hyperparameters change (drawn once, rescaled at each refit; never "
                  "with `gp.fit: false`), so a step costs O(M^2 + G M) whatever n (rank-one "
                  "updates of the posterior). Each step's sample has the same distribution given "
                  "the features, but successive steps share the features (the paper's text, \"a "
                  "function sampled from its own GP posterior\", allows either approximation) "
                  "[choice]. `local_ts.method: exact` ignores it")
          // An exact joint sample has no features to count or redraw.
          .applies_when(
              {"local_ts.features", "local_ts.redraw"}, "local_ts.method",
              [](const L& l) { return l.model == OwnModel::rff; }, "local_ts.method: rff")
          .real("local_ts.noise_floor", &L::noise_floor, Range::at_least(0),
                "floor of the noise variance in a local TS step [code]")
          .choice("local_ts.beta", &L::beta, kBetaRuleNames,
                  "beta_t, the scale of the own step's posterior sample, f ~ GP(mu, beta_t^2 "
                  "sigma^2): `constant` 1, as both papers' experiments (FTS sec. 5: the theory's "
                  "choice is overly conservative); `theory` beta_t = B + sigma sqrt(2 (gamma_{t-1} "
                  "+ 1 + log(4 / delta))) of DP-FTS-DE's Theorem 1 (footnote 5; FTS Theorem 1), "
                  "B = `local_ts.beta_rkhs_bound`, delta = `local_ts.beta_delta`, sigma^2 the "
                  "step's noise variance and gamma_{t-1} the information gain of the agent's own "
                  "observations on the step's features, 1/2 log det(I + Phi Phi^T / sigma^2) (a "
                  "lower bound of the theorem's maximum over any t - 1 points, which cannot be "
                  "computed) [choice]. `theory` needs `local_ts.method: rff` with "
                  "`local_ts.redraw: step`")
          .real("local_ts.beta_rkhs_bound", &L::beta_rkhs_bound, Range::at_least(0),
                "B of `local_ts.beta: theory`, the bound on the objective's RKHS norm [choice: "
                "the papers leave it open]")
          .real("local_ts.beta_delta", &L::beta_delta, Range::open(0, 1),
                "delta of `local_ts.beta: theory`, the theorem's failure probability [choice]")
          .applies_when(
              {"local_ts.beta_rkhs_bound", "local_ts.beta_delta"}, "local_ts.beta",
              [](const L& l) { return l.beta == BetaRule::theory; }, "local_ts.beta: theory")
          .check([](const L& l, schema::Problems& p) {
            // The exact sampler and the kept features draw their samples elsewhere.
            if (l.beta == BetaRule::theory &&
                (l.model != OwnModel::rff || l.redraw != Redraw::step))
              p.push_back({"local_ts.beta",
                           "theory scales the RFF step's sample and needs local_ts.method: rff "
                           "and local_ts.redraw: step"});
          })
          .boolean("gp.fit", &L::fit_hyper,
                   "learn the agent's kernel hyperparameters (those of `gp.kernel`, one length "
                   "scale per dimension with `gp.ard`) from its data, as `gp.fit_method` says "
                   "[code]; false keeps `gp.*` fixed [choice] for the synthetic functions")
          .include(gp::se_hyper_keys(), &L::hyper)
          .include(gp::kernel_choice_keys(), &L::kernel)
          .check([](const L& l, schema::Problems& p) {
            // With fixed hyperparameters ARD would give every dimension gp.lengthscale: the
            // isotropic kernel under another name.
            if (l.kernel.ard && !l.fit_hyper)
              p.push_back({"gp.ard",
                           "true learns one length scale per dimension and needs "
                           "`gp.fit: true`"});
          })
          .check([](const L& l, schema::Problems& p) {
            // The step's regulariser (and the fits' start) must be a proper noise variance.
            if (!(l.hyper.noise_var > 0)) p.push_back({"gp.noise_var", "must be > 0"});
          })
          .integer("gp.restarts", at(&L::fit, &gp::HyperFitter::Options::restarts),
                   Range::closed(0, 10000), "random restarts of each fit")
          .integer("gp.refit_every", &L::refit_every, Range::at_least(1),
                   "the period of the refits (see `gp.refit_on`)")
          .choice("gp.refit_on", &L::refit_on, kFitScheduleNames,
                  "with `gp.fit: true`, refit when the observation count is a multiple of "
                  "`gp.refit_every` (`observations`: DP-FTS-DE's code), or after BO iteration i "
                  "(from 0, after the initial design) when i >= `gp.refit_every` and i is a "
                  "multiple of it (`iterations`: FTS's code; n = 9, 14, 19, ... after 3 initial "
                  "points) [code]")
          .boolean("gp.fit_at_init", &L::fit_at_init,
                   "with `gp.fit: true`, also fit on the initial design (of more than one point) "
                   "before the first BO step, as FTS's code and DP-FTS-DE's TS code do; "
                   "DP-FTS-DE's agents do not [code]")
          .integer("gp.max_iterations", at(&L::fit, &gp::HyperFitter::Options::max_iterations),
                   Range::closed(1, 100000), "L-BFGS-B iterations per start")
          .choice("gp.fit_method", &L::fit_method, kFitMethodNames,
                  "with `gp.fit: true`, how a fit learns the hyperparameters: `optimise` "
                  "(marginal likelihood by L-BFGS-B with restarts, the codes' default) or "
                  "`sample` (the mean of posterior samples under the Gamma priors `gp.prior.*`, "
                  "as the codes' `gp_mcmc` branch; slice sampling on the log hyperparameters "
                  "instead of their HMC: no step size to tune) [choice]")
          .include(gp::hyper_sampler_keys(), &L::sampler)
          // Fixed hyperparameters are never fitted: how and when a fit runs changes nothing.
          .applies_when(
              {"gp.restarts", "gp.refit_every", "gp.refit_on", "gp.fit_at_init",
               "gp.max_iterations", "gp.fit_method", "gp.samples", "gp.burn_in", "gp.thin",
               "gp.prior.lengthscale_shape", "gp.prior.lengthscale_rate",
               "gp.prior.signal_var_shape", "gp.prior.signal_var_rate", "gp.prior.noise_var_shape",
               "gp.prior.noise_var_rate"},
              "gp.fit", [](const L& l) { return l.fit_hyper; }, "gp.fit: true")
          .include(prior_mean_keys(), &L::prior_mean)
          .integer("acquisition.random_points",
                   at(&L::maximiser, &acq::BoxMaximiser::Options::random_points),
                   Range::closed(1, 10000000),
                   "continuous domains: random points evaluated first (App. B.2.6)")
          .integer("acquisition.starts", at(&L::maximiser, &acq::BoxMaximiser::Options::starts),
                   Range::closed(0, 100000), "then L-BFGS-B from this many random starts")
          .integer("acquisition.max_iterations",
                   at(&L::maximiser, &acq::BoxMaximiser::Options::max_iterations),
                   Range::closed(1, 100000), "L-BFGS-B iterations per start")
          .include(acq::acquisition_method_keys(), &L::acquisition);
  return g;
}

void check_local_ts(const LocalTsOptions& options, const protocol::ExperimentFacts& facts,
                    std::vector<schema::Problem>& problems) {
  // Any finite domain (a grid of any dimension, a table's points): the joint sample is the
  // circulant one on an equally spaced 1-D grid, the dense O(G^3) one elsewhere.
  if (options.model == OwnModel::exact && facts.domain == core::DomainKind::box)
    problems.push_back({"local_ts.method",
                        "exact samples the GP on every point of a finite domain and needs a "
                        "family with one (a grid or a table, e.g. gp_grid, heterogeneous, "
                        "branin with objective.branin_grid, table); use rff on a box"});
}

}  // namespace fbosim::agents

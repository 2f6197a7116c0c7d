#pragma once
// An agent's own Thompson-sampling step, as the FTS and DP-FTS-DE authors' code does it (FTS
// sec. 3.2 allows the RFF approximation here): draw fresh random features
// with the agent's current GP hyperparameters, condition the RFF / BLR posterior on all of its
// observations (the noise variance, floored, as regulariser), draw one posterior sample and
// maximise it over the domain (exhaustively on a grid, App. B.2.6's random points + L-BFGS-B
// on the box). Hyperparameters are fitted (gp.fit_method) on the schedule of the options
// (FitSchedule; optionally on the initial design too), lazily at the next own step on the data
// of the latest count the schedule named, with a stream keyed by it ("agent.fit"(id, count)).
// The codes fit eagerly, also before a step that follows the server; when no own step comes
// between two scheduled counts, fbosim makes only the later fit, whose L-BFGS-B then starts
// from the previous fit's hyperparameters rather than from the skipped one's.
// [choice] `local_ts.redraw: refit` keeps each agent's features, drawn once from a stream of its
// own ("agent.local_features"(id)), rescaled only when the hyperparameters change, and follows
// new observations by rank-one updates (rff::FixedFeatureBlr): a step costs O(M^2 + G M)
// whatever the number of observations. Each step's sample has the distribution of eq. 2 given
// the features, but successive steps share them; DP-FTS-DE's text ("a function sampled from its
// own GP posterior") allows either approximation.
// Used by DP-FTS-DE agents, standard TS, the sources' TS histories and FTS's target agent.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "algorithms/acquisition/acquisition_method.hpp"
#include "algorithms/acquisition/box_maximiser.hpp"
#include "algorithms/gp/hyper_fitter.hpp"
#include "algorithms/gp/hyper_sampler.hpp"
#include "algorithms/gp/kernel.hpp"
#include "algorithms/gp/se_kernel.hpp"
#include "algorithms/rff/fixed_feature_blr.hpp"
#include "algorithms/rff/grid_argmax.hpp"
#include "algorithms/surrogate/circulant_grid_gp.hpp"
#include "core/box.hpp"
#include "core/rng.hpp"
#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::protocol {
struct ExperimentFacts;
}

namespace fbosim::agents {

/// How the step samples the agent's own posterior: the RFF approximation with fresh features
/// (the authors' code), or [choice] one joint sample of the exact GP posterior on every grid
/// point (FTS Algorithm 1 line 4 as written; grid domains only). On an equally spaced 1-D grid
/// the exact sample costs O(G log G + n^2) (surrogate::CirculantGridGp), elsewhere O(G^3); either
/// with any kernel of gp.kernel, isotropic or ARD.
enum class OwnModel { rff, exact };
inline constexpr schema::EnumNames<OwnModel> kOwnModelNames{{OwnModel::rff, "rff"},
                                                            {OwnModel::exact, "exact"}};
OwnModel parse_own_model(const std::string& s);  ///< "rff" | "exact"; throws invalid_argument
std::string to_string(OwnModel m);

/// When the RFF model draws its random features: fresh at every `step` (the authors' code), or
/// once per agent, rescaled at each change of the hyperparameters (`refit`) [choice].
enum class Redraw { step, refit };
inline constexpr schema::EnumNames<Redraw> kRedrawNames{{Redraw::step, "step"},
                                                        {Redraw::refit, "refit"}};
Redraw parse_redraw(const std::string& s);  ///< "step" | "refit"; throws invalid_argument
std::string to_string(Redraw r);

/// The scale beta_t of the own step's posterior sample, f ~ GP(mu, beta_t^2 sigma^2) (DP-FTS-DE
/// Algo. 2 line 6 and footnote 5; FTS Theorem 1): `constant` 1, as both papers' experiments
/// ("the theoretical choice of beta_t ... is overly conservative", FTS sec. 5); `theory`
/// beta_t = B + sigma sqrt(2 (gamma_{t-1} + 1 + log(4 / delta))) (theory_beta).
enum class BetaRule { constant, theory };
inline constexpr schema::EnumNames<BetaRule> kBetaRuleNames{{BetaRule::constant, "constant"},
                                                            {BetaRule::theory, "theory"}};

/// beta_t = B + sigma sqrt(2 (gamma + 1 + log(4 / delta))) (DP-FTS-DE Theorem 1; FTS Theorem 1):
/// B >= 0 the RKHS norm bound, sigma > 0 the noise standard deviation, gamma >= 0 the information
/// gain, delta in (0, 1).
double theory_beta(double rkhs_bound, double sigma, double gamma, double delta);
/// The information gain 1/2 log det(I_n + K / noise_var) of n observations whose kernel matrix is
/// K (n x n, positive semi-definite), noise_var > 0; 0 for n = 0.
double information_gain(const Eigen::MatrixXd& K, double noise_var);
/// One sample of N(nu, beta^2 lambda Sigma^-1), the BLR posterior of eq. 2 with its covariance
/// scaled by beta^2 (beta > 0): beta x blr_sample(Phi, y / beta, lambda), since the posterior of
/// y / beta has mean nu / beta and the same covariance. The same draws as blr_sample.
Eigen::VectorXd scaled_blr_sample(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y,
                                  double lambda, double beta, core::RngStream& rng);

/// When the hyperparameters are refitted (gp.refit_on), every refit_every:
///   observations  when the observation count n is a multiple of it: DP-FTS-DE's code
///                 (`len(self.X) % gp_opt_schedule == 0`, bayesian_optimization_dp_fts_de.py and
///                 bayesian_optimization_ts.py);
///   iterations    after the i-th BO observation (i = n - n_init - 1, from 0) when i >= it and
///                 i is a multiple of it: FTS's code (`i >= gp_opt_schedule and i %
///                 gp_opt_schedule == 0` in maximize, federated_bayesian_optimization.py), e.g.
///                 n = 9, 14, 19, ... after 3 initial points.
enum class FitSchedule { observations, iterations };
inline constexpr schema::EnumNames<FitSchedule> kFitScheduleNames{
    {FitSchedule::observations, "observations"}, {FitSchedule::iterations, "iterations"}};
FitSchedule parse_fit_schedule(const std::string& s);  ///< throws invalid_argument
std::string to_string(FitSchedule s);

/// How a fit learns the hyperparameters (gp.fit_method): type-II maximum likelihood
/// (HyperFitter, the codes' default) or the mean of posterior samples under Gamma priors
/// (HyperSampler, the codes' `gp_mcmc` branch).
enum class FitMethod { optimise, sample };
inline constexpr schema::EnumNames<FitMethod> kFitMethodNames{{FitMethod::optimise, "optimise"},
                                                              {FitMethod::sample, "sample"}};

struct LocalTsOptions {
  OwnModel model = OwnModel::rff;      ///< local_ts.method
  int features = 100;                  ///< M_target, fresh features per step [code]
  Redraw redraw = Redraw::step;        ///< local_ts.redraw (the RFF model only)
  double noise_floor = 1e-5;           ///< floor of the noise variance in a step [code]
  gp::SeHyper hyper{0.03, 1.0, 0.01};  ///< initial (or fixed) GP hyperparameters
  gp::KernelChoice kernel;             ///< gp.kernel, gp.ard
  bool fit_hyper = false;              ///< learn them by marginal likelihood [code]
  int refit_every = 5;                 ///< the period of the refits (see FitSchedule)
  FitSchedule refit_on = FitSchedule::observations;  ///< gp.refit_on
  /// gp.fit_at_init: also fit on the initial design (n = n_init > 1) before the first step, as
  /// FTS's code and DP-FTS-DE's TS code do (`if init_points > 1: optimize_restarts`);
  /// DP-FTS-DE's agents do not (their first fit is at n = 5 k >= n_init).
  bool fit_at_init = false;
  gp::HyperFitter::Options fit;
  FitMethod fit_method = FitMethod::optimise;  ///< gp.fit_method
  gp::HyperSampler::Options sampler;           ///< gp.samples, gp.burn_in, gp.thin, gp.prior.*
  /// gp.mean: the GP's constant prior mean m0. The model is f = m0 + g with g a zero-mean GP,
  /// so fits and steps see y - m0; the step's argmax of m0 + g is that of g.
  double prior_mean = 0.0;
  acq::BoxMaximiser::Options maximiser;
  acq::AcquisitionMethod acquisition;  ///< acquisition.method, acquisition.direct.*
  /// local_ts.beta: beta_t of the own step. theory: gamma_{t-1} is the information gain of the
  /// agent's own n observations on the step's features (information_gain(Phi Phi^T, lambda))
  /// [choice: the maximum over any n points, the theorem's gamma, is not computable; this is a
  /// lower bound of it]; sigma = sqrt(lambda), the step's noise variance.
  BetaRule beta = BetaRule::constant;
  double beta_rkhs_bound = 1.0;  ///< local_ts.beta_rkhs_bound: B [choice]
  double beta_delta = 0.1;       ///< local_ts.beta_delta: delta [choice]
};

/// local_ts.*, gp.* (the hyperparameters, gp::se_hyper_keys(), the kernel and their fits) and
/// acquisition.*: the keys of the own TS step, shared by every system that has one.
const schema::Group<LocalTsOptions>& local_ts_keys();
/// The conditions across keys of the group: `local_ts.method: exact` needs a finite domain (a
/// grid or a table).
void check_local_ts(const LocalTsOptions& options, const protocol::ExperimentFacts& facts,
                    std::vector<schema::Problem>& problems);

class LocalThompson {
 public:
  /// id: the agent's number (it keys the fit streams); domain: shared with the caller, must
  /// outlive this object; init_points: the size of the agent's initial design (its first
  /// observations; the origin of FitSchedule::iterations and of fit_at_init). Throws
  /// std::invalid_argument for the exact model on a box.
  LocalThompson(int id, const core::Domain& domain, LocalTsOptions options, int init_points = 0);

  /// Records an observation y at x (x a d-vector in the domain).
  void observe(const Eigen::VectorXd& x, double y);
  /// One TS step: the maximiser of a posterior sample. Draws from rng; fits from `streams`.
  Eigen::VectorXd step(core::RngStream& rng, const core::RngFactory& streams);
  /// The GP hyperparameters for a step now: fitted first if a fit is due (the same schedule and
  /// streams as step()). For agents that use them in a model of their own (RGPE / TAF).
  const gp::SeHyper& current_hyper(const core::RngFactory& streams);
  /// Whether x was queried before (exact equality).
  bool already_queried(const Eigen::VectorXd& x) const;

  /// The observation count of the data the current hyperparameters were fitted on (0: never).
  int fitted_at() const { return fitted_at_; }

  const std::vector<Eigen::VectorXd>& inputs() const { return X_; }
  const std::vector<double>& outputs() const { return y_; }
  /// The isotropic SE hyperparameters (the default kernel). With another kernel (gp.kernel,
  /// gp.ard) signal_var and noise_var are current and lengthscale is the first of
  /// kernel_hyper()'s length scales.
  const gp::SeHyper& hyper() const { return hyper_; }
  /// The current hyperparameters with the configured kernel (isotropic: one length scale).
  gp::KernelHyper kernel_hyper() const;
  const LocalTsOptions& options() const { return options_; }

 private:
  void update_hyper(const core::RngFactory& streams);

 public:
  /// The queried points, n x d (one per row).
  Eigen::MatrixXd data() const;
  /// The observations less the prior mean (the zero-mean GP's targets), the first n.
  Eigen::VectorXd centred(Eigen::Index n) const;

 private:
  Eigen::VectorXd rff_sample_argmax(core::RngStream& rng);
  Eigen::VectorXd kept_sample_argmax(core::RngStream& rng, const core::RngFactory& streams);
  Eigen::VectorXd argmax(const rff::RandomFeatures& features, const Eigen::VectorXd& omega,
                         core::RngStream& rng) const;
  Eigen::VectorXd exact_sample_argmax(core::RngStream& rng);
  bool update_circulant(const gp::SeHyper& h);

  int id_;
  const core::Domain& domain_;
  LocalTsOptions options_;
  int init_points_;
  std::vector<Eigen::VectorXd> X_;  // queried points
  std::vector<double> y_;           // observations
  gp::SeHyper hyper_;
  Eigen::VectorXd lengthscales_;  // the kernel's length scales (1 or d) when not the default
  int fit_target_ = 0;            // observation count of the latest scheduled fit
  int fitted_at_ = 0;             // observation count the current hyper_ were fitted on
  std::optional<rff::UniformGrid> grid_;      // the domain, if an equally spaced 1-D grid
  std::optional<rff::FixedFeatureBlr> kept_;  // Redraw::refit: the kept features, posterior
  std::optional<surrogate::CirculantGridGp> circulant_;  // OwnModel::exact on a uniform grid
};

/// A uniformly random point of `box`: a grid point inside it (uniform over those, the first
/// grid point if none) on a grid domain, else uniform in the box. One draw from rng.
Eigen::VectorXd random_point(const core::Domain& domain, const core::Box& box,
                             core::RngStream& rng);

}  // namespace fbosim::agents

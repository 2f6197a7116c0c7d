#include "algorithms/agents/local_thompson.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Cholesky>

#include "algorithms/acquisition/candidate_argmax.hpp"
#include "algorithms/rff/blr_sample.hpp"
#include "algorithms/rff/grid_argmax.hpp"
#include "algorithms/rff/random_features.hpp"
#include "algorithms/surrogate/exact_gp.hpp"

namespace fbosim::agents {

Eigen::VectorXd random_point(const core::Domain& domain, const core::Box& box,
                             core::RngStream& rng) {
  if (domain.is_grid()) {
    std::vector<Eigen::Index> inside;
    const Eigen::MatrixXd& g = domain.grid;
    for (Eigen::Index j = 0; j < g.rows(); ++j) {
      const bool in = ((g.row(j).transpose().array() >= box.lo.array()) &&
                       (g.row(j).transpose().array() <= box.hi.array()))
                          .all();
      if (in) inside.push_back(j);
    }
    if (inside.empty()) inside.push_back(0);
    return g.row(inside[rng.uniform_int(inside.size())]).transpose();
  }
  Eigen::VectorXd x(box.dim());
  for (int k = 0; k < box.dim(); ++k) x[k] = rng.uniform(box.lo[k], box.hi[k]);
  return x;
}

OwnModel parse_own_model(const std::string& s) { return kOwnModelNames.parse(s); }

std::string to_string(OwnModel m) { return kOwnModelNames.name(m); }

Redraw parse_redraw(const std::string& s) { return kRedrawNames.parse(s); }

std::string to_string(Redraw r) { return kRedrawNames.name(r); }

FitSchedule parse_fit_schedule(const std::string& s) { return kFitScheduleNames.parse(s); }

std::string to_string(FitSchedule s) { return kFitScheduleNames.name(s); }

LocalThompson::LocalThompson(int id, const core::Domain& domain, LocalTsOptions options,
                             int init_points)
    : id_(id),
      domain_(domain),
      options_(options),
      init_points_(init_points),
      hyper_(options.hyper),
      grid_(domain.is_grid() ? rff::UniformGrid::of(domain.grid) : std::nullopt) {
  if (options_.model == OwnModel::exact && !domain_.is_grid())
    throw std::invalid_argument(
        "local_ts.method: exact samples the GP on every point of a finite domain (a grid or a "
        "table); use rff on a box");
  if (!options_.kernel.is_default())
    lengthscales_ =
        Eigen::VectorXd::Constant(options_.kernel.ard ? domain_.dim : 1, hyper_.lengthscale);
}

gp::KernelHyper LocalThompson::kernel_hyper() const {
  return {options_.kernel.family,
          options_.kernel.is_default() ? Eigen::VectorXd::Constant(1, hyper_.lengthscale)
                                       : lengthscales_,
          hyper_.signal_var, hyper_.noise_var};
}

Eigen::MatrixXd LocalThompson::data() const {
  Eigen::MatrixXd X(static_cast<Eigen::Index>(X_.size()), domain_.dim);
  for (std::size_t k = 0; k < X_.size(); ++k)
    X.row(static_cast<Eigen::Index>(k)) = X_[k].transpose();
  return X;
}

Eigen::VectorXd LocalThompson::centred(Eigen::Index n) const {
  Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(y_.data(), n);
  if (options_.prior_mean != 0.0) y.array() -= options_.prior_mean;  // 0: the bits as before
  return y;
}

void LocalThompson::observe(const Eigen::VectorXd& x, double y) {
  X_.push_back(x);
  y_.push_back(y);
  const int n = static_cast<int>(y_.size()), every = options_.refit_every;
  if (options_.refit_on == FitSchedule::observations) {
    if (n % every == 0) fit_target_ = n;
  } else {
    const int i = n - init_points_ - 1;  // the BO iteration this observation ends
    if (i >= every && i % every == 0) fit_target_ = n;
  }
  if (options_.fit_at_init && n == init_points_ && n > 1) fit_target_ = n;
}

bool LocalThompson::already_queried(const Eigen::VectorXd& x) const {
  return std::any_of(X_.begin(), X_.end(), [&](const Eigen::VectorXd& p) { return p == x; });
}

void LocalThompson::update_hyper(const core::RngFactory& streams) {
  if (!options_.fit_hyper || fit_target_ <= fitted_at_) return;
  const int n = fit_target_;
  Eigen::MatrixXd X(n, domain_.dim);
  for (int k = 0; k < n; ++k) X.row(k) = X_[k].transpose();
  const Eigen::VectorXd y = centred(n);
  if (options_.fit_method == FitMethod::sample) {
    // A stream of its own: the optimiser's "agent.fit" streams stay as they were.
    core::RngStream rng = streams.stream("agent.fit_sample", static_cast<std::uint64_t>(id_),
                                         static_cast<std::uint64_t>(n));
    gp::HyperSampler::Options so = options_.sampler;  // the optimiser's box (gp.* has no keys)
    const gp::HyperFitter::Options& box = options_.fit;
    so.min_lengthscale = box.min_lengthscale, so.max_lengthscale = box.max_lengthscale;
    so.min_signal_var = box.min_signal_var, so.max_signal_var = box.max_signal_var;
    so.min_noise_var = box.min_noise_var, so.max_noise_var = box.max_noise_var;
    const gp::KernelHyper h = gp::HyperSampler(so).sample(X, y, kernel_hyper(), rng);
    if (!options_.kernel.is_default()) lengthscales_ = h.lengthscales;
    hyper_ = {h.lengthscales[0], h.signal_var, h.noise_var};
    fitted_at_ = n;
    return;
  }
  core::RngStream rng =
      streams.stream("agent.fit", static_cast<std::uint64_t>(id_), static_cast<std::uint64_t>(n));
  if (options_.kernel.is_default()) {
    hyper_ = gp::HyperFitter(options_.fit).fit(X, y, hyper_, rng);
  } else {
    const gp::KernelHyper h = gp::HyperFitter(options_.fit).fit(X, y, kernel_hyper(), rng);
    lengthscales_ = h.lengthscales;
    hyper_ = {h.lengthscales[0], h.signal_var, h.noise_var};
  }
  fitted_at_ = n;
}

const gp::SeHyper& LocalThompson::current_hyper(const core::RngFactory& streams) {
  update_hyper(streams);
  return hyper_;
}

Eigen::VectorXd LocalThompson::step(core::RngStream& rng, const core::RngFactory& streams) {
  update_hyper(streams);
  if (options_.model == OwnModel::exact) return exact_sample_argmax(rng);
  return options_.redraw == Redraw::refit ? kept_sample_argmax(rng, streams)
                                          : rff_sample_argmax(rng);
}

double theory_beta(double rkhs_bound, double sigma, double gamma, double delta) {
  return rkhs_bound + sigma * std::sqrt(2 * (gamma + 1 + std::log(4 / delta)));
}

double information_gain(const Eigen::MatrixXd& K, double noise_var) {
  if (K.rows() == 0) return 0;
  const Eigen::MatrixXd A =
      Eigen::MatrixXd::Identity(K.rows(), K.cols()) + K / noise_var;  // SPD: I + PSD
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success)
    throw std::runtime_error("information gain: I + K / noise_var is not positive definite");
  return llt.matrixL().toDenseMatrix().diagonal().array().log().sum();  // 1/2 log det A
}

Eigen::VectorXd scaled_blr_sample(const Eigen::MatrixXd& Phi, const Eigen::VectorXd& y,
                                  double lambda, double beta, core::RngStream& rng) {
  if (beta == 1) return rff::blr_sample(Phi, y, lambda, rng);
  return beta * rff::blr_sample(Phi, y / beta, lambda, rng);
}

Eigen::VectorXd LocalThompson::rff_sample_argmax(core::RngStream& rng) {
  const int dim = domain_.dim;
  const rff::RandomFeatures fresh =
      options_.kernel.is_default()
          ? rff::RandomFeatures::draw(dim, options_.features, hyper_.lengthscale, hyper_.signal_var,
                                      rng)
          : rff::RandomFeatures::draw(dim, options_.features, options_.kernel.family, lengthscales_,
                                      hyper_.signal_var, rng);
  const double lambda = std::max(hyper_.noise_var, options_.noise_floor);
  const auto n = static_cast<Eigen::Index>(X_.size());
  const Eigen::MatrixXd Phi = fresh.features(data());
  double beta = 1;
  if (options_.beta == BetaRule::theory)
    beta = theory_beta(options_.beta_rkhs_bound, std::sqrt(lambda),
                       information_gain(Phi * Phi.transpose(), lambda), options_.beta_delta);
  const Eigen::VectorXd omega = scaled_blr_sample(Phi, centred(n), lambda, beta, rng);
  return argmax(fresh, omega, rng);
}

Eigen::VectorXd LocalThompson::kept_sample_argmax(core::RngStream& rng,
                                                  const core::RngFactory& streams) {
  if (!kept_) {
    // Base features (l = 1, signal variance 1) from the agent's own stream: no other stream's
    // draws move.
    core::RngStream base = streams.stream("agent.local_features", static_cast<std::uint64_t>(id_));
    kept_.emplace(options_.kernel.is_default()
                      ? rff::RandomFeatures::draw(domain_.dim, options_.features, 1.0, 1.0, base)
                      : rff::RandomFeatures::draw(domain_.dim, options_.features,
                                                  options_.kernel.family, Eigen::VectorXd::Ones(1),
                                                  1.0, base));
  }
  const double lambda = std::max(hyper_.noise_var, options_.noise_floor);
  if (options_.kernel.is_default())
    kept_->set_hyper(hyper_.lengthscale, hyper_.signal_var, lambda);
  else
    kept_->set_hyper(lengthscales_, hyper_.signal_var, lambda);
  const auto n = static_cast<Eigen::Index>(X_.size());
  const Eigen::Index done = kept_->observations();
  if (done < n) {
    Eigen::MatrixXd X(n - done, domain_.dim);
    for (Eigen::Index k = done; k < n; ++k) X.row(k - done) = X_[k].transpose();
    kept_->add(X, centred(n).tail(n - done));
  }
  const Eigen::VectorXd omega = kept_->sample(rng);
  return argmax(kept_->features(), omega, rng);
}

Eigen::VectorXd LocalThompson::argmax(const rff::RandomFeatures& features,
                                      const Eigen::VectorXd& omega, core::RngStream& rng) const {
  if (grid_) return domain_.grid.row(rff::grid_argmax(features, *grid_, omega)).transpose();
  if (domain_.is_grid())
    return domain_.grid.row(rff::grid_argmax(features, domain_.grid, omega)).transpose();
  return acq::maximise_sample(options_.acquisition, acq::BoxMaximiser(options_.maximiser), features,
                              omega, core::Box::unit(domain_.dim), rng)
      .x;
}

// The circulant sampler of the current hyperparameters, conditioned on every observation; false
// (and no sampler) when an observation is not a grid point or no embedding holds. Any kernel
// family: the grid is 1-D, so h.lengthscale is the kernel's only length scale (with gp.ard too).
bool LocalThompson::update_circulant(const gp::SeHyper& h) {
  if (!grid_ || !(h.noise_var > 0)) return false;
  const auto same = [&](const gp::SeHyper& o) {
    return o.lengthscale == h.lengthscale && o.signal_var == h.signal_var &&
           o.noise_var == h.noise_var;
  };
  if (!circulant_ || !same(circulant_->hyper())) {
    circulant_.reset();
    try {
      circulant_.emplace(grid_->size, grid_->h, h, options_.kernel.family);
    } catch (const std::runtime_error&) {
      return false;  // a length scale no embedding holds: the dense sample below
    }
  }
  for (auto k = static_cast<std::size_t>(circulant_->observations()); k < X_.size(); ++k) {
    const double x = X_[k][0];
    const auto j = static_cast<Eigen::Index>(std::llround((x - grid_->x0) / grid_->h));
    if (j < 0 || j >= grid_->size || domain_.grid(j, 0) != x) {
      circulant_.reset();
      return false;
    }
    circulant_->add(j, y_[k] - options_.prior_mean);
  }
  return true;
}

Eigen::VectorXd LocalThompson::exact_sample_argmax(core::RngStream& rng) {
  gp::SeHyper h = hyper_;
  h.noise_var = std::max(h.noise_var, options_.noise_floor);
  if (update_circulant(h))
    return domain_.grid.row(acq::CandidateArgmax::argmax(circulant_->sample(rng))).transpose();
  // Elsewhere (a table, a grid of d >= 2 or one not equally spaced) the dense joint sample:
  // O(G^3) for any kernel (ARD on a product grid has no Kronecker shortcut for Matern, whose
  // kernel is not a product over dimensions).
  surrogate::ExactGp gp =
      options_.kernel.is_default()
          ? surrogate::ExactGp(domain_.dim, h)
          : surrogate::ExactGp(domain_.dim, gp::KernelHyper{options_.kernel.family, lengthscales_,
                                                            h.signal_var, h.noise_var});
  gp.fit(data(), centred(static_cast<Eigen::Index>(y_.size())));
  const Eigen::VectorXd f = gp.sample(domain_.grid, 1, rng).col(0);
  return domain_.grid.row(acq::CandidateArgmax::argmax(f)).transpose();
}

}  // namespace fbosim::agents

#include "algorithms/acquisition/direct_maximiser.hpp"

#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlopt.h>

namespace fbosim::acq {

namespace {

nlopt_algorithm nlopt_direct_algorithm(DirectAlgorithm a) {
  switch (a) {
    case DirectAlgorithm::orig_direct:
      return NLOPT_GN_ORIG_DIRECT;
    case DirectAlgorithm::orig_direct_l:
      return NLOPT_GN_ORIG_DIRECT_L;
    case DirectAlgorithm::direct:
      return NLOPT_GN_DIRECT;
    case DirectAlgorithm::direct_l:
      return NLOPT_GN_DIRECT_L;
  }
  throw std::logic_error("DirectMaximiser: unknown algorithm");
}

// What NLopt's C callback needs: the score, a scratch point, and the first exception the score
// threw (an exception must not cross NLopt's C frames: it is kept, NLopt is stopped, and
// maximise() rethrows it).
struct DirectCall {
  const ScoreMaximiser::Score* score = nullptr;
  nlopt_opt opt = nullptr;
  Eigen::VectorXd x;
  int evaluations = 0;
  std::exception_ptr error;
  // The best point evaluated (the first of equal ones, as DIRECT keeps its own), for a run
  // NLopt ends with an error after evaluating points.
  Eigen::VectorXd best_x;
  double best_min = std::numeric_limits<double>::infinity();
};

// NLopt minimises: the objective is -score.
double direct_objective(unsigned n, const double* x, double* /*grad*/, void* data) {
  auto* call = static_cast<DirectCall*>(data);
  if (call->error) return std::numeric_limits<double>::quiet_NaN();
  try {
    call->x = Eigen::Map<const Eigen::VectorXd>(x, static_cast<Eigen::Index>(n));
    ++call->evaluations;
    const double f = -call->score->value(call->x, nullptr);
    if (f < call->best_min) {
      call->best_min = f;
      call->best_x = call->x;
    }
    return f;
  } catch (...) {
    call->error = std::current_exception();
    nlopt_force_stop(call->opt);
    return std::numeric_limits<double>::quiet_NaN();
  }
}

struct NloptDestroy {
  void operator()(nlopt_opt o) const { nlopt_destroy(o); }
};

void check_nlopt(nlopt_result r, nlopt_opt opt, const char* what) {
  if (r < 0) {
    const char* msg = nlopt_get_errmsg(opt);
    throw std::runtime_error(fmt::format("DirectMaximiser: NLopt's {} failed ({}){}", what,
                                         nlopt_result_to_string(r),
                                         msg ? fmt::format(": {}", msg) : std::string()));
  }
}

}  // namespace

DirectMaximiser::DirectMaximiser(Options options) : options_(options) {
  if (options_.max_evaluations < 1)
    throw std::invalid_argument(fmt::format("DirectMaximiser: max_evaluations must be >= 1, got {}",
                                            options_.max_evaluations));
  if (!(options_.eps >= 0) || !std::isfinite(options_.eps))
    throw std::invalid_argument(
        fmt::format("DirectMaximiser: eps must be finite and >= 0, got {}", options_.eps));
}

DirectMaximiser::Result DirectMaximiser::maximise(const ScoreMaximiser::Score& score,
                                                  const core::Box& box) const {
  const int d = box.dim();
  if (!score.value)
    throw std::invalid_argument("DirectMaximiser::maximise: the score has no value()");
  if (d < 1 || box.hi.size() != d)
    throw std::invalid_argument("DirectMaximiser::maximise: the box's bounds do not match");
  for (int j = 0; j < d; ++j)
    if (!(box.lo[j] < box.hi[j]))
      throw std::invalid_argument(fmt::format(
          "DirectMaximiser::maximise: the box is empty or inverted in dimension {} ([{}, {}])", j,
          box.lo[j], box.hi[j]));
  const std::unique_ptr<nlopt_opt_s, NloptDestroy> opt(
      nlopt_create(nlopt_direct_algorithm(options_.algorithm), static_cast<unsigned>(d)));
  if (!opt) throw std::runtime_error("DirectMaximiser: nlopt_create failed");
  DirectCall call;
  call.score = &score;
  call.opt = opt.get();
  check_nlopt(nlopt_set_min_objective(opt.get(), direct_objective, &call), opt.get(),
              "set_min_objective");
  check_nlopt(nlopt_set_lower_bounds(opt.get(), box.lo.data()), opt.get(), "set_lower_bounds");
  check_nlopt(nlopt_set_upper_bounds(opt.get(), box.hi.data()), opt.get(), "set_upper_bounds");
  check_nlopt(nlopt_set_maxeval(opt.get(), options_.max_evaluations), opt.get(), "set_maxeval");
  check_nlopt(nlopt_set_param(opt.get(), "magic_eps", options_.eps), opt.get(), "set_param");
  // DIRECT ignores the start; the box's centre keeps x defined.
  std::vector<double> x(static_cast<std::size_t>(d));
  for (int j = 0; j < d; ++j) x[static_cast<std::size_t>(j)] = 0.5 * (box.lo[j] + box.hi[j]);
  double minf = std::numeric_limits<double>::infinity();
  const nlopt_result r = nlopt_optimize(opt.get(), x.data(), &minf);
  if (call.error) std::rethrow_exception(call.error);
  // Original DIRECT keeps its rectangles in a list of fixed size (from the evaluation budget);
  // on a flat score (a TAF or RGPE acquisition far from the data) one iteration can divide more
  // rectangles than it holds, and NLopt then fails ("sample-points failed for DIRECT") with x
  // at some other point. Gablonsky's DIRECT stops there with its best point so far: so do we,
  // rather than end the experiment.
  if ((r == NLOPT_FAILURE || r == NLOPT_OUT_OF_MEMORY) && std::isfinite(call.best_min))
    return {call.best_x, -call.best_min, call.evaluations};
  check_nlopt(r, opt.get(), "optimize");
  if (!std::isfinite(minf))
    throw std::runtime_error(fmt::format(
        "DirectMaximiser: no finite score among the {} points evaluated", call.evaluations));
  return {Eigen::Map<const Eigen::VectorXd>(x.data(), d), -minf, call.evaluations};
}

Candidate DirectMaximiser::maximise(const rff::RandomFeatures& features,
                                    const Eigen::VectorXd& omega, const core::Box& box) const {
  if (features.dim() != box.dim() || omega.size() != features.size())
    throw std::invalid_argument("DirectMaximiser::maximise: dimensions do not match");
  rff::RandomFeatures::Workspace ws;
  ScoreMaximiser::Score score;
  score.value = [&](const Eigen::VectorXd& x, Eigen::VectorXd* /*grad*/) {
    return features.value(x, omega, nullptr, ws);
  };
  Result r = maximise(score, box);
  return {std::move(r.x), r.value};
}

}  // namespace fbosim::acq

#include "sim/config/model_keys.hpp"

namespace fbosim::config {

void read_rff(ConfigReader& r, RffKeys& k) {
  k.features = r.get_int("rff.features", k.features, 1, kMaxCount);
  k.lengthscale = r.get<double>("rff.lengthscale", k.lengthscale);
  r.require(k.lengthscale > 0, "rff.lengthscale", "must be > 0");
  k.lambda = r.get<double>("rff.lambda", k.lambda);
  r.require(k.lambda > 0, "rff.lambda", "must be > 0");
}

void read_local_ts(ConfigReader& r, agents::LocalTsOptions& a,
                   const std::string& objective_family) {
  a.model = agents::parse_own_model(
      r.get_choice("local_ts.method", to_string(a.model), {"rff", "exact"}));
  const bool grid = objective_family == "gp_grid" || objective_family == "heterogeneous";
  r.require(a.model == agents::OwnModel::rff || grid, "local_ts.method",
            "exact samples the GP on every grid point and needs a grid family (gp_grid or "
            "heterogeneous); use rff on a box");
  a.features = r.get_int("local_ts.features", a.features, 1, kMaxCount);
  a.redraw =
      agents::parse_redraw(r.get_choice("local_ts.redraw", to_string(a.redraw), {"step", "refit"}));
  a.noise_floor = r.get<double>("local_ts.noise_floor", a.noise_floor);
  r.require(a.noise_floor >= 0, "local_ts.noise_floor", "must be >= 0");
  a.fit_hyper = r.get<bool>("gp.fit", a.fit_hyper);
  a.hyper.lengthscale = r.get<double>("gp.lengthscale", a.hyper.lengthscale);
  r.require(a.hyper.lengthscale > 0, "gp.lengthscale", "must be > 0");
  a.hyper.signal_var = r.get<double>("gp.signal_var", a.hyper.signal_var);
  r.require(a.hyper.signal_var > 0, "gp.signal_var", "must be > 0");
  a.hyper.noise_var = r.get<double>("gp.noise_var", a.hyper.noise_var);
  r.require(a.hyper.noise_var > 0, "gp.noise_var", "must be > 0");
  a.fit.restarts = r.get_int("gp.restarts", a.fit.restarts, 0, 10000);
  a.refit_every = r.get<int>("gp.refit_every", a.refit_every);
  r.require(a.refit_every >= 1, "gp.refit_every", "must be >= 1");
  a.refit_on = agents::parse_fit_schedule(
      r.get_choice("gp.refit_on", to_string(a.refit_on), {"observations", "iterations"}));
  a.fit_at_init = r.get<bool>("gp.fit_at_init", a.fit_at_init);
  a.fit.max_iterations = r.get_int("gp.max_iterations", a.fit.max_iterations, 1, kMaxCount);
  a.maximiser.random_points =
      r.get_int("acquisition.random_points", a.maximiser.random_points, 1, 10000000);
  a.maximiser.starts = r.get_int("acquisition.starts", a.maximiser.starts, 0, kMaxCount);
  a.maximiser.max_iterations =
      r.get_int("acquisition.max_iterations", a.maximiser.max_iterations, 1, kMaxCount);
}

}  // namespace fbosim::config

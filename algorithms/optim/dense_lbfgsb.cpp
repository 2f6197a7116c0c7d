#include "algorithms/optim/dense_lbfgsb.hpp"

#include <cmath>
#include <numeric>

namespace fbosim::optim {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

DenseLbfgsb::DenseLbfgsb(const Param& param) : param_(param) { param_.check_param(); }

void DenseLbfgsb::reset(int n) {
  const int m = param_.m;
  if (n != n_) {
    n_ = n;
    S_.resize(n, m);
    Y_.resize(n, m);
    B_.resize(n, n);
    block_.resize(n, n);
    for (Eigen::VectorXd* v : {&xp_, &grad_, &gradp_, &drt_, &xcp_, &vecs_, &vecy_, &brk_, &d_, &z_,
                               &c_, &l_, &u_, &y_, &y0_, &lambda_, &mu_, &rhs_, &sol_})
      v->resize(n);
    free_.reserve(n);
    ord_.reserve(n);
    set_.reserve(n);
    part_.reserve(n);
    is_free_.resize(n);
    state_.resize(n);
  }
  if (param_.past > 0) fx_hist_.resize(param_.past);
  ncorr_ = 0;
  ptr_ = m;  // the first pair goes to column 0, as LBFGSpp's BFGSMat::reset
  theta_ = 1.0;
  b_stale_ = true;
}

void DenseLbfgsb::add_correction(const Eigen::VectorXd& s, const Eigen::VectorXd& y) {
  const int m = param_.m;
  const int loc = ptr_ % m;
  S_.col(loc) = s;
  Y_.col(loc) = y;
  theta_ = y.squaredNorm() / s.dot(y);
  if (ncorr_ < m) ++ncorr_;
  ptr_ = loc + 1;
  b_stale_ = true;
}

const Eigen::MatrixXd& DenseLbfgsb::hessian() {
  if (!b_stale_) return B_;
  const int n = n_, m = param_.m;
  B_.setZero();
  B_.diagonal().setConstant(theta_);
  // BFGS updates of theta I by the pairs, oldest first: the compact form's B (Byrd, Nocedal &
  // Schnabel 1994, Theorem 2.3). The curvature test in minimize() keeps s^T y > 0, so each
  // update keeps B positive definite; one that rounding would spoil (s^T B s <= 0) is skipped.
  for (int k = 0; k < ncorr_; ++k) {
    const int j = (ptr_ - ncorr_ + k + m) % m;
    const double* s = S_.col(j).data();
    const double* yv = Y_.col(j).data();
    double* Bs = sol_.data();
    double sBs = 0.0, ys = 0.0;
    for (int r = 0; r < n; ++r) {
      double acc = 0.0;
      for (int c = 0; c < n; ++c) acc += B_(r, c) * s[c];
      Bs[r] = acc;
      sBs += s[r] * acc;
      ys += s[r] * yv[r];
    }
    if (!(sBs > 0.0) || !std::isfinite(sBs)) continue;
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) B_(r, c) += yv[r] * yv[c] / ys - Bs[r] * Bs[c] / sBs;
  }
  b_stale_ = false;
  return B_;
}

double DenseLbfgsb::quad(const Eigen::VectorXd& u, const Eigen::VectorXd& v) {
  const Eigen::MatrixXd& B = hessian();
  double sum = 0.0;
  for (int c = 0; c < n_; ++c) {
    if (v[c] == 0.0) continue;
    double col = 0.0;
    for (int r = 0; r < n_; ++r) col += u[r] * B(r, c);
    sum += col * v[c];
  }
  return sum;
}

// As LBFGSpp's Cauchy::get_cauchy_point, with f' = g^T d + d^T B z and f'' = d^T B d computed
// from the dense B at each breakpoint (Byrd et al. 1995, eqs. 4.2-4.3, z = x(t) - x0) instead
// of LBFGSpp's updates through W and M, which equal them in exact arithmetic.
void DenseLbfgsb::cauchy_point(const Eigen::VectorXd& x0, const Eigen::VectorXd& g,
                               const Eigen::VectorXd& lb, const Eigen::VectorXd& ub) {
  const int n = n_;
  xcp_ = x0;
  free_.clear();
  ord_.clear();
  for (int i = 0; i < n; ++i) {
    if (lb[i] == ub[i])
      brk_[i] = 0.0;
    else if (g[i] < 0.0)
      brk_[i] = (x0[i] - ub[i]) / g[i];
    else if (g[i] > 0.0)
      brk_[i] = (x0[i] - lb[i]) / g[i];
    else
      brk_[i] = kInf;
    const bool at_bound = brk_[i] == 0.0;
    d_[i] = at_bound ? 0.0 : -g[i];
    if (brk_[i] == kInf)
      free_.push_back(i);
    else if (!at_bound)
      ord_.push_back(i);
  }
  std::sort(ord_.begin(), ord_.end(), [this](int a, int b) { return brk_[a] < brk_[b]; });
  const int nord = static_cast<int>(ord_.size());
  const int nfree = static_cast<int>(free_.size());
  if (nfree < 1 && nord < 1) return;

  z_.setZero();
  double fp = -d_.squaredNorm();
  double fpp = quad(d_, d_);
  double deltatmin = -fp / fpp;
  double il = 0.0;
  int b = 0;
  double iu = nord < 1 ? kInf : brk_[ord_[0]];
  double deltat = iu - il;
  bool crossed_all = false;
  while (deltatmin >= deltat) {
    z_ += deltat * d_;
    int act_end = b;  // one past the last breakpoint <= iu
    while (act_end < nord && !(brk_[ord_[act_end]] > iu)) ++act_end;
    if (nfree == 0 && act_end == nord) {
      for (int i = b; i < act_end; ++i) {
        const int a = ord_[i];
        xcp_[a] = d_[a] > 0.0 ? ub[a] : lb[a];
      }
      crossed_all = true;
      break;
    }
    for (int i = b; i < act_end; ++i) {
      const int a = ord_[i];
      xcp_[a] = d_[a] > 0.0 ? ub[a] : lb[a];
      z_[a] = xcp_[a] - x0[a];
      d_[a] = 0.0;
    }
    fp = g.dot(d_) + quad(d_, z_);
    fpp = quad(d_, d_);
    deltatmin = -fp / fpp;
    il = iu;
    b = act_end;
    if (b >= nord) break;
    iu = brk_[ord_[b]];
    deltat = iu - il;
  }
  const double eps = std::numeric_limits<double>::epsilon();
  if (fpp < eps) deltatmin = -fp / eps;
  if (crossed_all) return;
  deltatmin = std::max(deltatmin, 0.0);
  const double tfinal = il + deltatmin;
  for (int i : free_) xcp_[i] = x0[i] + tfinal * d_[i];
  for (int i = b; i < nord; ++i) {
    const int a = ord_[i];
    xcp_[a] = x0[a] + tfinal * d_[a];
    free_.push_back(a);
  }
}

bool DenseLbfgsb::solve_block(const std::vector<int>& P, const double* r, double* y) {
  const Eigen::MatrixXd& B = hessian();
  const int k = static_cast<int>(P.size());
  double* L = block_.data();  // k x k, column-major, lower triangle
  for (int c = 0; c < k; ++c)
    for (int rr = c; rr < k; ++rr) L[rr + c * k] = B(free_[P[rr]], free_[P[c]]);
  for (int c = 0; c < k; ++c) {
    double piv = L[c + c * k];
    for (int j = 0; j < c; ++j) piv -= L[c + j * k] * L[c + j * k];
    if (!(piv > 0.0)) return false;
    piv = std::sqrt(piv);
    L[c + c * k] = piv;
    for (int rr = c + 1; rr < k; ++rr) {
      double v = L[rr + c * k];
      for (int j = 0; j < c; ++j) v -= L[rr + j * k] * L[c + j * k];
      L[rr + c * k] = v / piv;
    }
  }
  for (int rr = 0; rr < k; ++rr) {  // L w = -r
    double v = -r[rr];
    for (int j = 0; j < rr; ++j) v -= L[rr + j * k] * y[j];
    y[rr] = v / L[rr + rr * k];
  }
  for (int rr = k - 1; rr >= 0; --rr) {  // L^T y = w
    double v = y[rr];
    for (int j = rr + 1; j < k; ++j) v -= L[j + rr * k] * y[j];
    y[rr] = v / L[rr + rr * k];
  }
  return true;
}

// As LBFGSpp's SubspaceMin::subspace_minimize: the model's minimiser over the free variables,
// first without their bounds, then, if that leaves the box, by BOXCQP's primal-dual active-set
// iterations. The multipliers are the model's gradient q = c + B_FF y on the variables held at
// a bound (lambda = q at a lower, mu = -q at an upper bound), as in BOXCQP; LBFGSpp 0.1 leaves
// out the theta y term of B_FF y there.
void DenseLbfgsb::subspace_direction(const Eigen::VectorXd& x0, const Eigen::VectorXd& g,
                                     const Eigen::VectorXd& lb, const Eigen::VectorXd& ub) {
  drt_ = xcp_ - x0;
  const int nf = static_cast<int>(free_.size());
  if (nf < 1) return;
  const Eigen::MatrixXd& B = hessian();
  std::fill(is_free_.begin(), is_free_.end(), 0);
  for (int i : free_) is_free_[i] = 1;
  // c = g_F + B_FA (xcp - x0)_A: the variables outside F sit at their Cauchy-point values.
  for (int a = 0; a < nf; ++a) {
    const int i = free_[a];
    double v = g[i];
    for (int j = 0; j < n_; ++j)
      if (!is_free_[j] && drt_[j] != 0.0) v += B(i, j) * drt_[j];
    c_[a] = v;
    l_[a] = lb[i] - x0[i];
    u_[a] = ub[i] - x0[i];
  }
  const auto in_bounds = [&](int a) { return !(y_[a] < l_[a] || y_[a] > u_[a]); };
  const auto assign = [&](const Eigen::VectorXd& y) {
    for (int a = 0; a < nf; ++a) drt_[free_[a]] = y[a];
  };
  part_.resize(nf);
  std::iota(part_.begin(), part_.end(), 0);
  if (!solve_block(part_, c_.data(), y_.data())) y_.head(nf) = -c_.head(nf) / theta_;
  bool inside = true;
  for (int a = 0; a < nf; ++a) inside = inside && in_bounds(a);
  if (inside) {
    assign(y_);
    return;
  }

  y0_.head(nf) = y_.head(nf);
  lambda_.head(nf).setZero();
  mu_.head(nf).setZero();
  enum : char { kLower, kUpper, kFree };
  std::vector<char>& state = state_;
  int k = 0;
  for (; k < param_.max_submin; ++k) {
    set_.clear();  // the P set
    for (int a = 0; a < nf; ++a) {
      if (y_[a] < l_[a] || (y_[a] == l_[a] && lambda_[a] >= 0.0)) {
        state[a] = kLower;
        y_[a] = l_[a];
        mu_[a] = 0.0;
      } else if (y_[a] > u_[a] || (y_[a] == u_[a] && mu_[a] >= 0.0)) {
        state[a] = kUpper;
        y_[a] = u_[a];
        lambda_[a] = 0.0;
      } else {
        state[a] = kFree;
        set_.push_back(a);
        lambda_[a] = mu_[a] = 0.0;
      }
    }
    const int np = static_cast<int>(set_.size());
    if (np > 0) {
      for (int p = 0; p < np; ++p) {
        const int i = free_[set_[p]];
        double v = c_[set_[p]];
        for (int a = 0; a < nf; ++a)
          if (state[a] != kFree) v += B(i, free_[a]) * y_[a];
        rhs_[p] = v;
      }
      if (!solve_block(set_, rhs_.data(), sol_.data()))
        for (int p = 0; p < np; ++p) sol_[p] = -rhs_[p] / theta_;
      for (int p = 0; p < np; ++p) y_[set_[p]] = sol_[p];
    }
    bool done = true;
    for (int a = 0; a < nf; ++a) {
      if (state[a] == kFree) {
        done = done && in_bounds(a);
        continue;
      }
      double q = c_[a];
      for (int b = 0; b < nf; ++b) q += B(free_[a], free_[b]) * y_[b];
      if (state[a] == kLower)
        lambda_[a] = q;
      else
        mu_[a] = -q;
      done = done && (state[a] == kLower ? lambda_[a] >= 0.0 : mu_[a] >= 0.0);
    }
    if (done) break;
  }
  if (k < param_.max_submin) {
    assign(y_);
    return;
  }
  // No convergence: LBFGSpp's fallbacks, the last iterate then the first solve clamped into
  // the box, whichever descends; else the first solve as it is.
  const double eps = std::numeric_limits<double>::epsilon();
  for (const Eigen::VectorXd* cand : {&y_, &y0_}) {
    for (int a = 0; a < nf; ++a) drt_[free_[a]] = std::clamp((*cand)[a], l_[a], u_[a]);
    if (drt_.dot(g) <= -eps) return;
  }
  assign(y0_);
}

double DenseLbfgsb::proj_grad_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& g,
                                   const Eigen::VectorXd& lb, const Eigen::VectorXd& ub) const {
  double norm = 0.0;
  for (int i = 0; i < n_; ++i) {
    const double v = std::abs(std::min(std::max(x[i] - g[i], lb[i]), ub[i]) - x[i]);
    if (!(v <= norm)) norm = v;  // a NaN propagates, as in LBFGSpp
  }
  return norm;
}

double DenseLbfgsb::max_step_size(const Eigen::VectorXd& x0, const Eigen::VectorXd& drt,
                                  const Eigen::VectorXd& lb, const Eigen::VectorXd& ub) {
  double step = kInf;
  for (Eigen::Index i = 0; i < x0.size(); ++i) {
    if (drt[i] > 0.0)
      step = std::min(step, (ub[i] - x0[i]) / drt[i]);
    else if (drt[i] < 0.0)
      step = std::min(step, (lb[i] - x0[i]) / drt[i]);
  }
  return step;
}

bool DenseLbfgsb::converged(double projgnorm, const Eigen::VectorXd& x) const {
  return projgnorm <= param_.epsilon || projgnorm <= param_.epsilon_rel * x.norm();
}

}  // namespace fbosim::optim

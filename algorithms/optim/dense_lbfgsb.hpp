#pragma once
// L-BFGS-B (Byrd, Lu, Nocedal & Zhu 1995, "A limited memory algorithm for bound constrained
// optimization", SIAM J. Sci. Comput. 16(5)) for the small boxes of this program: the
// hyperparameter fits (3 dimensions) and the acquisitions (the domain's dimension).
//
// The iteration is LBFGSpp's LBFGSBSolver::minimize (0.1), step for step, with its parameters,
// stopping rules and More-Thuente line search (LBFGSpp's own, called here). Only the
// quasi-Newton step differs in how it is computed: the limited-memory matrix
// B = theta I - W M W^T of the last m pairs (Byrd, Nocedal & Schnabel 1994, eq. 2.17) is
// formed explicitly, n x n, by m BFGS updates of theta I, which equals it in exact arithmetic.
// The generalised Cauchy point (Byrd et al. 1995, sec. 4) and the subspace minimisation
// (BOXCQP, Voglis & Lagaris 2004, as LBFGSpp) then work on dense blocks of B. LBFGSpp
// allocates and factorises a 2m x 2m middle matrix several times per step instead: on the 2-3
// dimensional problems here that bookkeeping cost three times the function evaluations of an
// acquisition and a third of those of a hyperparameter fit (issue #13).
// O(m n^2 + n^3) per step: meant for n up to a few tens.
#include <LBFGSpp/LineSearchMoreThuente.h>
#include <LBFGSpp/Param.h>
#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace fbosim::optim {

class DenseLbfgsb {
 public:
  using Param = LBFGSpp::LBFGSBParam<double>;

  explicit DenseLbfgsb(const Param& param);

  /// Minimises f over [lb, ub] from x (clamped into the box first), as LBFGSpp's
  /// LBFGSBSolver::minimize: f(x, grad) returns the value and writes the gradient. On return x
  /// is the last iterate and fx = f(x); returns the number of iterations. Throws what LBFGSpp's
  /// line search throws when it fails (x and fx are then its last trial).
  template <class F>
  int minimize(F& f, Eigen::VectorXd& x, double& fx, const Eigen::VectorXd& lb,
               const Eigen::VectorXd& ub);

  // The pieces of one step, public for the tests.
  void reset(int n);
  void add_correction(const Eigen::VectorXd& s, const Eigen::VectorXd& y);
  /// B = theta I - W M W^T of the stored pairs, n x n.
  const Eigen::MatrixXd& hessian();
  /// Generalised Cauchy point of the model g^T d + d^T B d / 2 from x0 along the projected
  /// steepest descent path; sets cauchy() and the free variables.
  void cauchy_point(const Eigen::VectorXd& x0, const Eigen::VectorXd& g, const Eigen::VectorXd& lb,
                    const Eigen::VectorXd& ub);
  /// Direction from x0 to the box-constrained minimiser of the model over the free variables,
  /// the others held at the Cauchy point (BOXCQP, at most param.max_submin iterations).
  void subspace_direction(const Eigen::VectorXd& x0, const Eigen::VectorXd& g,
                          const Eigen::VectorXd& lb, const Eigen::VectorXd& ub);
  const Eigen::VectorXd& cauchy() const { return xcp_; }
  const Eigen::VectorXd& direction() const { return drt_; }
  const std::vector<int>& free_variables() const { return free_; }

 private:
  double proj_grad_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& g,
                        const Eigen::VectorXd& lb, const Eigen::VectorXd& ub) const;
  static double max_step_size(const Eigen::VectorXd& x0, const Eigen::VectorXd& drt,
                              const Eigen::VectorXd& lb, const Eigen::VectorXd& ub);
  bool converged(double projgnorm, const Eigen::VectorXd& x) const;
  double quad(const Eigen::VectorXd& u, const Eigen::VectorXd& v);  // u^T B v
  // Solves B_PP y = -r for the index set P (positions into free_); false if B_PP is not
  // numerically positive definite.
  bool solve_block(const std::vector<int>& P, const double* r, double* y);

  Param param_;
  int n_ = 0;
  int ncorr_ = 0, ptr_ = 0;  // pairs stored; one past the newest, as LBFGSpp's BFGSMat
  double theta_ = 1.0;
  Eigen::MatrixXd S_, Y_, B_;
  bool b_stale_ = true;
  Eigen::VectorXd xp_, grad_, gradp_, drt_, xcp_, vecs_, vecy_, fx_hist_;
  // Scratch of the Cauchy point and the subspace step (sized by reset: no allocation per step).
  Eigen::VectorXd brk_, d_, z_, c_, l_, u_, y_, y0_, lambda_, mu_, rhs_, sol_;
  Eigen::MatrixXd block_;
  std::vector<int> free_, ord_, set_, part_;
  std::vector<char> is_free_, state_;
};

template <class F>
int DenseLbfgsb::minimize(F& f, Eigen::VectorXd& x, double& fx, const Eigen::VectorXd& lb,
                          const Eigen::VectorXd& ub) {
  const int n = static_cast<int>(x.size());
  if (lb.size() != n || ub.size() != n)
    throw std::invalid_argument("DenseLbfgsb: 'lb' and 'ub' must have the same size as 'x'");
  x = x.cwiseMax(lb).cwiseMin(ub);
  reset(n);
  const int fpast = param_.past;
  fx = f(x, grad_);
  double projgnorm = proj_grad_norm(x, grad_, lb, ub);
  if (fpast > 0) fx_hist_[0] = fx;
  if (converged(projgnorm, x)) return 1;

  cauchy_point(x, grad_, lb, ub);
  drt_ = xcp_ - x;
  drt_.normalize();
  const double eps = std::numeric_limits<double>::epsilon();
  for (int k = 1;; ++k) {
    xp_ = x;
    gradp_ = grad_;
    const double step_max = std::min(param_.max_step, max_step_size(x, drt_, lb, ub));
    double step = std::min(1.0, step_max);
    LBFGSpp::LineSearchMoreThuente<double>::LineSearch(f, fx, x, grad_, step, step_max, drt_, xp_,
                                                       param_);
    projgnorm = proj_grad_norm(x, grad_, lb, ub);
    if (converged(projgnorm, x)) return k;
    if (fpast > 0) {
      const double fxd = fx_hist_[k % fpast];
      if (k >= fpast &&
          std::abs(fxd - fx) <= param_.delta * std::max({std::abs(fx), std::abs(fxd), 1.0}))
        return k;
      fx_hist_[k % fpast] = fx;
    }
    if (param_.max_iterations != 0 && k >= param_.max_iterations) return k;
    vecs_ = x - xp_;
    vecy_ = grad_ - gradp_;
    if (vecs_.dot(vecy_) > eps * vecy_.squaredNorm()) add_correction(vecs_, vecy_);
    x = x.cwiseMax(lb).cwiseMin(ub);
    cauchy_point(x, grad_, lb, ub);
    subspace_direction(x, grad_, lb, ub);
  }
}

}  // namespace fbosim::optim

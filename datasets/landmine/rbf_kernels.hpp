#pragma once
// One evaluation's RBF kernels, K(x, z) = exp(-gamma d(x, z)) from a field's RbfDistances: the
// training kernel once for the cv_folds fold models and the final model (in float, as libsvm's
// solver holds Q, and its diagonal in double), and the kernel of scored points against a
// model's support vectors for its decision values. exp(-gamma d) with libsvm's d, and with
//   KernelExp::vector  core::fast_exp: vectorised, the same bits on every x86-64 CPU (within
//                      2 ulp of exp; 14 % of the values differ from std::exp, by 1-2 ulp);
//   KernelExp::std     std::exp, libsvm's own values bit for bit, so that the models and
//                      decision values are those of libsvm 3.24 with kernel_type RBF (tested),
//                      on this CPU: glibc's exp rounds differently with and without FMA.
#include <memory>
#include <vector>

#include "datasets/landmine/rbf_distances.hpp"
#include "datasets/landmine/svc_solver.hpp"

namespace fbosim::datasets {

/// The exponential of the kernels (see the header comment).
enum class KernelExp { vector, std };

class RbfKernels {
 public:
  /// gamma > 0; `d` must outlive this object. Computes the n (n + 1) / 2 training kernel values.
  RbfKernels(const RbfDistances& d, double gamma, KernelExp exp = KernelExp::vector);

  /// The training kernel for train_svc (indices of the split's training points).
  SvcKernel training() const { return {values_.get(), n_, diagonal_.data()}; }

  /// Which points decisions() scores.
  enum class Points { training, validation };
  /// Decision values of `model` (trained on this object's training kernel) at the points
  /// rows[i] of `which`: sum_s coef_s K(p, x_{sv_s}) - rho, summed in the support vectors'
  /// order as libsvm's svm_predict_values, with K in the form of its Kernel::k_function.
  std::vector<double> decisions(const SvcModel& model, Points which,
                                const std::vector<int>& rows) const;

 private:
  const RbfDistances& d_;
  std::size_t n_;
  double gamma_;
  KernelExp exp_;
  std::unique_ptr<float[]> values_;  // n x n, K(x_r, x_c) rounded to float
  std::vector<double> diagonal_;
};

}  // namespace fbosim::datasets

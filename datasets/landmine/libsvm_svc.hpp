#pragma once
// libsvm 3.24 itself (Debian's libsvm3: Chang & Lin 2011, the library scikit-learn's SVC wraps)
// training C-SVC with kernel_type RBF, so that it computes every kernel value itself: the
// reference the landmine objective's own kernels and solver (RbfKernels, train_svc) are tested
// against, bit for bit, and the objective's engine `libsvm` (SvmEngine).
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets {

/// Trains C-SVC (cost c, RBF kernel gamma, eps 1e-3, shrinking on) on the rows `fit` of x
/// (n x d, one point per row) in that order, y[r] == first labelled +1 and the others -1, and
/// returns the decision values at the rows `rows` of `points` (m x d), oriented towards +1.
/// Throws std::invalid_argument when libsvm refuses the parameters.
std::vector<double> libsvm_rbf_decisions(const Eigen::MatrixXd& x, const std::vector<int>& y,
                                         const std::vector<int>& fit, int first, double c,
                                         double gamma, const Eigen::MatrixXd& points,
                                         const std::vector<int>& rows);

}  // namespace fbosim::datasets

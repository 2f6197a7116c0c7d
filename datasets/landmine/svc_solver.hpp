#pragma once
// Two-class C-SVC (Cortes & Vapnik 1995) trained by the SMO method of libsvm 3.24 (Chang & Lin,
// "LIBSVM: a library for support vector machines", ACM TIST 2011, sec. 4.1 and 5.1): the dual
// min_a 1/2 a'Qa - e'a subject to y'a = 0, 0 <= a_i <= C, with Q_ij = y_i y_j K_ij held in
// float (libsvm's Qfloat), solved from a = 0 by pairs chosen with second-order working-set
// selection (Fan, Chen & Lin 2005, "Working set selection using second order information for
// training SVM", JMLR 6, WSS 3 with tau = 1e-12), stopping when m(a) - M(a) < eps = 1e-3, with
// their shrinking (every min(l, 1000) iterations; the whole gradient reconstructed once
// m - M <= 10 eps), and -b = rho the mean of y_i G_i over the free variables, or the midpoint
// of its bounds when none is free.
//
// The same floating-point operations in the same order as libsvm 3.24's svm_train (Debian's
// libsvm3, which the landmine objective used through issue #26), so the same alphas, rho and
// support vectors bit for bit (tested against svm_train on precomputed kernels); faster because
// the Q rows come from one kernel matrix per evaluation instead of libsvm's per-training cache,
// and the working-set selection and the gradient updates run four lanes at a time (AVX2 and
// baseline clones, no FMA: the lanes do exactly the scalar operations, and the selection's ties
// go to the last index as libsvm's do).
#include <cstddef>
#include <vector>

namespace fbosim::datasets {

/// The kernel of the points as the solver reads it: K(a, b) rounded to float (libsvm's Qfloat)
/// at values[a * stride + b], and K(a, a) in double (libsvm's QD).
struct SvcKernel {
  const float* values;
  std::size_t stride;
  const double* diagonal;
};

/// A trained C-SVC: the decision value of x is sum_s coef[s] K(x, x_{sv[s]}) - rho, summed over
/// the support vectors in this order (libsvm's: the +1 class's, then the -1 class's, each in
/// the order of the training rows).
struct SvcModel {
  std::vector<int> sv;       ///< the support vectors: indices of the kernel's points
  std::vector<double> coef;  ///< y_i alpha_i of each support vector
  double rho = 0;
};

/// Trains C-SVC on the kernel's points `points` with labels[i] (+1 or -1) for points[i], as
/// libsvm 3.24's svm_train (C_SVC, cost c, eps 1e-3, shrinking on, no weights): libsvm first
/// groups the rows, +1 before -1, each class in the given order (svm_group_classes with the +1
/// class first). Throws std::invalid_argument when a class is empty, labels are not +-1, sizes
/// differ or c <= 0.
SvcModel train_svc(const SvcKernel& kernel, const std::vector<int>& points,
                   const std::vector<int>& labels, double c);

}  // namespace fbosim::datasets

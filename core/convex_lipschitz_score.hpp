#pragma once
// What an objective certifies about its validation score for the release of Kusner, Gardner,
// Garnett & Weinberger, "Differentially Private Bayesian Optimization" (ICML 2015), Algorithm 3
// (sec. 5): their Assumption 2, as numbers. The score of hyperparameter lambda is
//   f_V(lambda) = 1/m sum_{z in V} g(w_lambda, z),
// the mean over the private validation set V (m records; neighbours swap one) of a validation
// loss g that is `score_lipschitz`-Lipschitz in the model w and lies in an interval of length
// `score_range` for every possible record; w_lambda (approximately) minimises a training
// objective O_lambda(w) = lambda / 2 ||w||^2 + 1/n sum_i l(w, x_i, y_i) on a public training
// set, l convex with ||grad_w l|| <= `loss_gradient_bound` for every record, to a certified
// ||grad O_lambda(w_lambda)|| <= `gradient_tolerance`; lambda ranges over [lambda_min,
// lambda_max]. The objective guarantees every number for every record it may be given (e.g. by
// projecting features onto a ball), not just for its own data: the release's privacy rests on
// them (algorithms/release/convex_lipschitz_sensitivity.hpp).
namespace fbosim::core {

struct ConvexLipschitzScore {
  double lambda_min = 0;           ///< the smallest L2 strength of the domain (> 0)
  double lambda_max = 0;           ///< the largest (>= lambda_min)
  double loss_gradient_bound = 0;  ///< G: ||grad_w l(w, z)|| <= G for all w, z
  double score_lipschitz = 0;      ///< L: |g(w, z) - g(w', z)| <= L ||w - w'|| for all z
  double score_range = 0;          ///< sup g - inf g over all w, z
  double gradient_tolerance = 0;   ///< tau: ||grad O_lambda|| at the trained model, certified
  long long validation_size = 0;   ///< m = |V|
};

}  // namespace fbosim::core

#pragma once
// The witness of PO-GP-UCB's privacy doubt: Algorithm 1 releases Z = X~ M / sqrt(r), whose
// columns lie in the column space of the centred X~, so a unit vector u orthogonal to that
// space (and to the all-ones vector, which centring removes) has u^T Z = 0 for X, while a
// neighbour whose row i moved has u^T Z' != 0 almost surely when u_i != 0. Used by `fbosim
// audit` and tests/algorithms/curator/privacy_doubt_test.cpp.
#include <Eigen/Core>

namespace fbosim::curator {

/// e_i minus its projection on span(1, columns of the centred X), normalised: a unit vector
/// orthogonal to 1 and to the centred X's columns with weight on row i. X: n x d, n > d + 1.
Eigen::VectorXd separating_vector(const Eigen::MatrixXd& X, Eigen::Index i);

}  // namespace fbosim::curator

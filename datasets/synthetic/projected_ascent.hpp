#pragma once
// A small local maximiser on the unit box for estimating the extremes of the gp_box family
// (datasets/ may not use algorithms/, whose L-BFGS-B maximiser serves the acquisition).
#include <functional>

#include <Eigen/Core>

namespace fbosim::datasets {

/// Returns f(x) and writes its gradient to grad.
using ValueAndGradient = std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd& grad)>;

/// Projected gradient ascent on [0,1]^dim from x (updated in place to the best point found):
/// the first step moves `first_move` along the gradient; a step that improves f is accepted and
/// the step grows 1.5x, otherwise it halves. Stops after `iterations` trials or when a step
/// would move less than 1e-10. Returns f at the final x (never below f at the start).
double projected_ascent(const ValueAndGradient& f, Eigen::VectorXd& x, double first_move,
                        int iterations = 60);

}  // namespace fbosim::datasets

#include "datasets/synthetic/projected_ascent.hpp"

#include <algorithm>

namespace fbosim::datasets {

double projected_ascent(const ValueAndGradient& f, Eigen::VectorXd& x, double first_move,
                        int iterations) {
  Eigen::VectorXd g(x.size()), gy(x.size());
  double fx = f(x, g);
  double step = first_move / std::max(g.norm(), 1e-300);
  for (int it = 0; it < iterations; ++it) {
    const Eigen::VectorXd y = (x + step * g).cwiseMax(0.0).cwiseMin(1.0);
    if ((y - x).norm() < 1e-10) break;  // at a box corner/face optimum or converged
    const double fy = f(y, gy);
    if (fy > fx) {
      x = y;
      fx = fy;
      g.swap(gy);
      step *= 1.5;
    } else {
      step *= 0.5;
    }
  }
  return fx;
}

}  // namespace fbosim::datasets

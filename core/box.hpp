#pragma once
// Search spaces. Every objective is normalised to the unit box [0,1]^D (as in both papers' code); a
// Box is an axis-aligned sub-box of it (a DE sub-region), a Domain is the unit box or a finite
// set of points in it (the synthetic 1000-point grid).
#include <Eigen/Core>

namespace fbosim::core {

/// Axis-aligned box [lo, hi] in [0,1]^D. lo, hi: D-vectors.
struct Box {
  Eigen::VectorXd lo;
  Eigen::VectorXd hi;

  static Box unit(int dim) { return {Eigen::VectorXd::Zero(dim), Eigen::VectorXd::Ones(dim)}; }
  int dim() const { return static_cast<int>(lo.size()); }
};

/// The kind of search space an objective family has (a trait of its registry entry): a regular
/// grid of points, the continuous unit box, or an arbitrary finite set of points (a table).
enum class DomainKind { grid, box, finite_set };

/// The search space of an objective.
struct Domain {
  int dim = 1;
  /// grid: n x dim, one point per row, when the domain is finite; empty for the continuous box.
  Eigen::MatrixXd grid;

  bool is_grid() const { return grid.rows() > 0; }
};

}  // namespace fbosim::core

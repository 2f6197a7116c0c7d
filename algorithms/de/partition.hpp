#pragma once
// Sub-regions for distributed exploration (DP-FTS-DE Sec. 3.2): P equal-volume boxes.
// P is factored into per-dimension split counts, largest prime factors first, each factor going
// to the dimension with the fewest splits so far (ties: the lower dimension). This gives the
// paper's cases: 1-D P equal intervals; P = 4 in 2-D a 2 x 2 grid; P = 4 in 3-D halves of the
// first two dimensions; and [choice] P = 6 in 2-D a 3 x 2 grid. Region indices are row-major
// with dimension 0 slowest. Agent n explores region n mod P [code].
#include <vector>

#include <Eigen/Core>

#include "core/box.hpp"

namespace fbosim::de {

class Partition {
 public:
  Partition(int dim, int regions);

  int count() const { return regions_; }
  int dim() const { return static_cast<int>(splits_.size()); }
  /// Splits per dimension (product = count()).
  const std::vector<int>& splits() const { return splits_; }
  /// The region containing x (x in [0,1]^D; the upper face of [0,1] belongs to the last cell).
  int region_of(const Eigen::VectorXd& x) const;
  /// The box of region i.
  core::Box box(int i) const;
  /// The region agent n explores.
  int region_of_agent(int n) const { return n % regions_; }

 private:
  int regions_;
  std::vector<int> splits_;
};

}  // namespace fbosim::de

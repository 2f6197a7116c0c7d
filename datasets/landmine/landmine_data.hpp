#pragma once
// The landmine detection data of Xue et al. 2007 as the FTS / DP-FTS-DE authors use it: a MATLAB
// v5 file with 1 x 29 cell arrays `feature` (n x 9 doubles per field) and `label` (n x 1, 0/1).
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets {

struct LandmineField {
  Eigen::MatrixXd x;   ///< n x 9 features
  std::vector<int> y;  ///< n labels in {0, 1} (1 = landmine)
};

/// Reads every field; throws std::runtime_error naming the path and what was expected for a
/// missing file, a file matio cannot read, missing variables, wrong shapes or labels.
std::vector<LandmineField> load_landmine(const std::string& path);

}  // namespace fbosim::datasets

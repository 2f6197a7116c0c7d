#pragma once
// A table of objective values read from a CSV file: columns agent, x0 .. x{d-1}, y and
// optionally f (the noise-free value), in any order, one row per (agent, point). Read strictly:
// every error names the file, the line and the column, with the config reader's rules (a
// regular file of at most kMaxTableBytes, decimal numbers only, no control characters, a
// UTF-8 byte-order mark skipped).
#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets::table {

/// The largest table file read (a tabular benchmark of a million rows is about 50 MB).
inline constexpr std::size_t kMaxTableBytes = std::size_t{256} << 20;

class ValueTable {
 public:
  /// Reads and checks `path`: the header (agent, x0..x{d-1}, y, optional f; no other or
  /// repeated column), every value a finite number (agent an integer >= 0, x in [0, 1]), no
  /// (agent, point) twice, agents 0 .. K-1 each with rows, and every agent on the same set of
  /// points (the engine's agents share one domain). Throws std::runtime_error naming the file,
  /// line and column.
  explicit ValueTable(const std::string& path);

  int agents() const { return static_cast<int>(y_.size()); }
  int dim() const { return static_cast<int>(points_.cols()); }
  bool has_f() const { return has_f_; }
  /// The points (agent 0's, in file order), one per row.
  const Eigen::MatrixXd& points() const { return points_; }
  /// y and f of agent n at point i (f = y without an f column).
  double y(int agent, Eigen::Index i) const { return y_[static_cast<std::size_t>(agent)][i]; }
  double f(int agent, Eigen::Index i) const { return f_[static_cast<std::size_t>(agent)][i]; }
  /// The row of `x` among points(), or -1.
  Eigen::Index find(const Eigen::VectorXd& x) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  Eigen::MatrixXd points_;
  std::vector<Eigen::VectorXd> y_, f_;
  std::vector<std::pair<std::vector<double>, Eigen::Index>> index_;  // sorted by point
  bool has_f_ = false;
};

}  // namespace fbosim::datasets::table

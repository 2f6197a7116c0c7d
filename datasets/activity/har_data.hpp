#pragma once
// The UCI HAR data set ("Human Activity Recognition Using Smartphones", Anguita et al., ESANN
// 2013) in its official layout, train and test pooled: HAR's own split is by subject, and in
// DP-FTS-DE (App. B.2) every subject is one agent that splits its own rows 50/50.
#include <filesystem>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace fbosim::datasets {

struct HarData {
  static constexpr int kFeatures = 561;  ///< the provided feature vector (features.txt)
  static constexpr int kClasses = 6;     ///< activities 1..6 (activity_labels.txt)

  /// n x 561, one window per row: the train rows first, then the test rows, in file order.
  Eigen::MatrixXd features;
  /// n labels, 0-based (file label - 1), in 0..5.
  Eigen::VectorXi labels;
  /// n subject ids as in the files (1..30 in the official release).
  Eigen::VectorXi subjects;
  /// The six activity names of activity_labels.txt, in label order.
  std::vector<std::string> activity_names;

  /// Reads `dir` = `<root>/har/UCI HAR Dataset`: features.txt (561 lines), activity_labels.txt
  /// (6 lines "k NAME", k = 1..6), and {train,test}/{X,y,subject}_{train,test}.txt, where X has
  /// 561 whitespace-separated numbers per line, y one label in 1..6 and subject one positive
  /// integer. Throws std::runtime_error naming the file (and line) and what was expected.
  static HarData load(const std::filesystem::path& dir);

  /// The distinct subject ids, ascending.
  std::vector<int> subject_ids() const;
};

}  // namespace fbosim::datasets

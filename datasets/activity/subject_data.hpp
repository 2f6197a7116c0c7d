#pragma once
// One UCI HAR subject's rows as its agent uses them (DP-FTS-DE App. B.2): half for training,
// half for validation, stratified by label, and every feature standardised with the training
// half's mean and standard deviation.
#include <cstdint>

#include <Eigen/Core>

#include "datasets/activity/har_data.hpp"

namespace fbosim::datasets {

struct SubjectData {
  int subject = 0;  ///< the subject id of the files
  // Features are standardised in double and stored in float, the precision of the model.
  Eigen::MatrixXf train_x;  ///< n_train x 561, standardised
  Eigen::VectorXi train_y;  ///< labels 0..5
  Eigen::MatrixXf val_x;    ///< n_val x 561, standardised with the training statistics
  Eigen::VectorXi val_y;
  Eigen::VectorXd mean;   ///< 561: training-half mean of each raw feature
  Eigen::VectorXd scale;  ///< 561: training-half sd (ddof 0), or 1 where that sd is 0

  /// Splits the rows of `subject` 50/50, stratified by label [the papers say "half"; the
  /// stratification and rounding are our choice, after the landmine code's
  /// train_test_split(test_size=0.5, stratify=label)]: every class k with n_k rows gives
  /// floor(n_k / 2) rows to training, and the training half is topped up to floor(n / 2) rows by
  /// one more row from each of that many odd-sized classes, drawn at random. Which rows go where
  /// is a uniform draw of the stream RngFactory(split_seed, 0).stream("activity.split",
  /// subject): fixed for a given split_seed, the same in every run and for every algorithm.
  /// Row order inside each half is file order. Throws std::runtime_error when the subject has
  /// fewer than 2 rows.
  static SubjectData split(const HarData& data, int subject, std::uint64_t split_seed);

  /// Standardises train and val in place with train's column means and sds (population sd, as
  /// scikit-learn's StandardScaler). A column whose sd is numerically zero (<= 1e-12 max(1,
  /// |mean|)) is centred but left unscaled (scale 1). Returns mean and scale.
  static void standardise(Eigen::MatrixXd& train, Eigen::MatrixXd& val, Eigen::VectorXd& mean,
                          Eigen::VectorXd& scale);
};

}  // namespace fbosim::datasets

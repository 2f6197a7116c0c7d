#include "datasets/activity/subject_data.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.hpp"

namespace fbosim::datasets {

namespace {

using Rows = std::vector<Eigen::Index>;

void gather(const HarData& data, Rows rows, Eigen::MatrixXd& x, Eigen::VectorXi& y) {
  std::sort(rows.begin(), rows.end());
  x.resize(static_cast<Eigen::Index>(rows.size()), data.features.cols());
  y.resize(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    x.row(static_cast<Eigen::Index>(i)) = data.features.row(rows[i]);
    y[static_cast<Eigen::Index>(i)] = data.labels[rows[i]];
  }
}

}  // namespace

SubjectData SubjectData::split(const HarData& data, int subject, std::uint64_t split_seed) {
  std::vector<Rows> by_class(HarData::kClasses);
  std::size_t n = 0;
  for (Eigen::Index r = 0; r < data.subjects.size(); ++r)
    if (data.subjects[r] == subject) {
      by_class.at(static_cast<std::size_t>(data.labels[r])).push_back(r);
      ++n;
    }
  if (n < 2)
    throw std::runtime_error("UCI HAR: subject " + std::to_string(subject) + " has " +
                             std::to_string(n) + " rows; a 50/50 split needs at least 2");
  core::RngStream rng =
      core::RngFactory(split_seed, 0).stream("activity.split", static_cast<std::uint64_t>(subject));
  std::vector<std::size_t> take(by_class.size());
  Rows odd;  // classes with an odd count, as class indices
  std::size_t taken = 0;
  for (std::size_t k = 0; k < by_class.size(); ++k) {
    core::shuffle(by_class[k], rng);
    take[k] = by_class[k].size() / 2;
    taken += take[k];
    if (by_class[k].size() % 2 == 1) odd.push_back(static_cast<Eigen::Index>(k));
  }
  core::shuffle(odd, rng);
  for (std::size_t i = 0; taken < n / 2; ++i, ++taken) ++take[static_cast<std::size_t>(odd[i])];

  Rows train, val;
  for (std::size_t k = 0; k < by_class.size(); ++k) {
    train.insert(train.end(), by_class[k].begin(), by_class[k].begin() + take[k]);
    val.insert(val.end(), by_class[k].begin() + take[k], by_class[k].end());
  }
  SubjectData s;
  s.subject = subject;
  Eigen::MatrixXd train_x, val_x;
  gather(data, train, train_x, s.train_y);
  gather(data, val, val_x, s.val_y);
  standardise(train_x, val_x, s.mean, s.scale);
  s.train_x = train_x.cast<float>();
  s.val_x = val_x.cast<float>();
  return s;
}

void SubjectData::standardise(Eigen::MatrixXd& train, Eigen::MatrixXd& val, Eigen::VectorXd& mean,
                              Eigen::VectorXd& scale) {
  const double n = static_cast<double>(train.rows());
  mean = train.colwise().mean().transpose();
  train.rowwise() -= mean.transpose();
  val.rowwise() -= mean.transpose();
  // Two passes (centre, then the mean square) for an accurate variance.
  scale = (train.colwise().squaredNorm().transpose() / n).cwiseSqrt();
  for (Eigen::Index j = 0; j < scale.size(); ++j)
    if (scale[j] <= 1e-12 * std::max(1.0, std::abs(mean[j]))) scale[j] = 1.0;
  train.array().rowwise() /= scale.transpose().array();
  val.array().rowwise() /= scale.transpose().array();
}

}  // namespace fbosim::datasets

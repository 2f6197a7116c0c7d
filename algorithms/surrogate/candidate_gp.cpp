#include "algorithms/surrogate/candidate_gp.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fbosim::surrogate {

CandidateGp::CandidateGp(Eigen::MatrixXd candidates, gp::SeHyper hyper, ExactGp::Options options)
    : candidates_(std::move(candidates)),
      gp_(static_cast<int>(candidates_.cols()), hyper, options) {
  if (candidates_.rows() < 1 || !candidates_.allFinite())
    throw std::invalid_argument("CandidateGp: candidates must be a finite n x d matrix, n >= 1");
  mean_ = Eigen::VectorXd::Constant(candidates_.rows(), options.prior_mean);
  variance_ = Eigen::VectorXd::Constant(candidates_.rows(), hyper.signal_var);
}

void CandidateGp::add(Eigen::Index index, double y) {
  if (index < 0 || index >= candidates_.rows())
    throw std::out_of_range("CandidateGp::add: candidate " + std::to_string(index) + " of " +
                            std::to_string(candidates_.rows()));
  add(Eigen::VectorXd(candidates_.row(index).transpose()), y);
}

void CandidateGp::add(const Eigen::VectorXd& x, double y) {
  const int t = gp_.size();
  gp_.add(x, y);  // validates x and y; grows L by [l^T d] and beta by beta_t
  const Eigen::VectorXd row = gp_.factor_row(t);  // (l, d)
  const double d = row[t], beta_t = gp_.whitened_target(t);
  const gp::SeHyper& h = gp_.hyper();
  if (t + 1 > V_.rows()) {  // geometric growth of the capacity
    const Eigen::Index cap = std::max<Eigen::Index>(16, 2 * V_.rows());
    V_.conservativeResize(cap, candidates_.rows());
  }
  // v = (k(x, C) - l^T V) / d
  Eigen::RowVectorXd v = gp::se_kernel(x.transpose(), candidates_, h.lengthscale, h.signal_var);
  if (t > 0) v.noalias() -= row.head(t).transpose() * V_.topRows(t);
  v /= d;
  V_.row(t) = v;
  mean_.noalias() += beta_t * v.transpose();
  variance_ = (variance_.array() - v.transpose().array().square()).cwiseMax(0.0);
}

}  // namespace fbosim::surrogate

#include "algorithms/agents/gp_ucb_agent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/acquisition/candidate_argmax.hpp"
#include "algorithms/acquisition/scores.hpp"

namespace fbosim::agents {

double ucb_beta(long long n, int t, double delta) {
  if (n < 1 || t < 1 || !(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format(
        "beta_t needs n >= 1, t >= 1 and delta in (0, 1), got n = {}, t = {}, delta = {}", n, t,
        delta));
  const double tt = t;
  return 2 * std::log(static_cast<double>(n) * tt * tt * std::numbers::pi * std::numbers::pi /
                      (6 * delta));
}

GpUcbAgent::GpUcbAgent(int id, Eigen::MatrixXd candidates, Eigen::MatrixXd points,
                       GpUcbOptions options)
    : id_(id),
      points_(std::move(points)),
      options_(options),
      gp_(std::move(candidates), options.hyper, {.prior_mean = options.prior_mean}),
      seen_(static_cast<std::size_t>(gp_.candidates().rows()), false) {
  if (points_.rows() != gp_.candidates().rows())
    throw std::invalid_argument(fmt::format("GpUcbAgent {}: {} points for {} candidates", id_,
                                            points_.rows(), gp_.candidates().rows()));
  if (options_.init_points < 1 || options_.init_points > points_.rows())
    // Named by its key: a table's points are known only here (issue 25).
    throw std::invalid_argument(
        fmt::format("agents.init_points: must be in [1, {}] (the points of the domain), got {}",
                    points_.rows(), options_.init_points));
  (void)ucb_beta(1, 1, options_.delta);  // validates delta
}

std::vector<Eigen::VectorXd> GpUcbAgent::initial_points(core::RngStream& rng) const {
  // Distinct uniform indices by rejection (init_points << n in every use).
  const auto n = static_cast<std::uint64_t>(points_.rows());
  std::vector<Eigen::Index> chosen;
  while (static_cast<int>(chosen.size()) < options_.init_points) {
    const auto i = static_cast<Eigen::Index>(rng.uniform_int(n));
    if (std::find(chosen.begin(), chosen.end(), i) == chosen.end()) chosen.push_back(i);
  }
  std::vector<Eigen::VectorXd> out;
  for (Eigen::Index i : chosen) {
    pending_.push_back(i);
    out.push_back(points_.row(i).transpose());
  }
  return out;
}

Eigen::VectorXd GpUcbAgent::scores() const {
  const int t = gp_.size() + 1;
  const double beta = ucb_beta(points_.rows(), t, options_.delta);
  Eigen::VectorXd s;
  if (options_.bonus == GpUcbOptions::Bonus::deviation) {
    s = acq::ucb(gp_.mean(), gp_.variance(), beta);  // mu + sqrt(beta var)
  } else {
    s = gp_.mean() + std::sqrt(beta) * gp_.variance();
  }
  if (options_.exclude_queried && distinct_ < points_.rows())
    for (std::size_t i = 0; i < seen_.size(); ++i)
      if (seen_[i]) s[static_cast<Eigen::Index>(i)] = -std::numeric_limits<double>::infinity();
  return s;
}

protocol::Proposal GpUcbAgent::propose(int, const protocol::Broadcast&, core::RngStream&,
                                       const core::RngFactory&) {
  const Eigen::Index i = acq::CandidateArgmax::argmax(scores());
  pending_.push_back(i);
  return {points_.row(i).transpose(), "local"};
}

void GpUcbAgent::observe(const Eigen::VectorXd& x, double y) {
  if (pending_.empty())
    throw std::logic_error(fmt::format("GpUcbAgent {}: an observation it did not ask for", id_));
  const Eigen::Index i = pending_.front();
  if (x.size() != points_.cols() || !(x - points_.row(i).transpose()).isZero(0))
    throw std::logic_error(
        fmt::format("GpUcbAgent {}: observed a point other than its query {}", id_, i));
  pending_.pop_front();
  gp_.add(i, y);
  if (!seen_[static_cast<std::size_t>(i)]) ++distinct_;
  seen_[static_cast<std::size_t>(i)] = true;
  queried_.push_back(i);
  ys_.push_back(y);
}

}  // namespace fbosim::agents

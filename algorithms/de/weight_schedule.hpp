#pragma once
// Weights of the agents' messages in each sub-region (DP-FTS-DE Sec. 3.2, App. B and
// Fig. 9/12): for sub-region i, agent n gets an unnormalised weight h(a_t) if n explores i and
// h(1) otherwise, then the weights of region i are normalised over n:
//   softmax:   h(a) = exp(a)   (the paper's; a_t from 16 (or 9) down to 1)
//   linear:    h(a) = a        (Fig. 9; a_t from 1000 down to 1)
//   quadratic: h(a) = a^2      (Fig. 9; a_t from 40 down to 1)
//   equal:     every agent the same weight in every region (the "DE without weighting" ablation)
// a_t follows a piecewise-linear schedule in the round index t (t = 0 is the initial round):
//   a_t = start for t <= hold; a_t = linspace(start, end, decay)[t - hold - 1] for
//   t = hold + 1 .. hold + decay; a_t = end afterwards (App. B, first paragraph).
// Synthetic: start 16, hold 5, decay 5 (t = 6..10 -> 16, 12.25, 8.5, 4.75, 1).
// Real-world: start 16, hold 10, decay 30 (uniform after 40 iterations).
// The softmax of the paper, exp((a I + 1) / T_t) with T_t = a / (a_t - 1), has the same
// normalised weights as exp(a_t) vs exp(1): the ratio is exp(a_t - 1) either way. The weights
// are computed from log h(a_t) with the max-logit shift of log-sum-exp, so they are finite for
// every finite a_t >= 1 (exp(a_t) overflows from a_t = 710 on).
#include <string>
#include <vector>

#include <Eigen/Core>

#include "schema/enum_names.hpp"
#include "schema/fwd.hpp"

namespace fbosim::de {

enum class WeightScheme { softmax, linear, quadratic, equal };
/// exploration.weights.scheme's names.
inline constexpr schema::EnumNames<WeightScheme> kWeightSchemeNames{
    {WeightScheme::softmax, "softmax"},
    {WeightScheme::linear, "linear"},
    {WeightScheme::quadratic, "quadratic"},
    {WeightScheme::equal, "equal"}};

WeightScheme parse_weight_scheme(const std::string& s);  ///< throws std::invalid_argument
std::string to_string(WeightScheme s);

class WeightSchedule {
 public:
  struct Options {
    WeightScheme scheme = WeightScheme::softmax;
    double start = 16.0;   ///< a_t at the start
    double end = 1.0;      ///< a_t after the decay
    int hold = 5;          ///< a_t = start for t <= hold
    int decay = 5;         ///< rounds of the linear decay (their first is start, last is end)
    bool adaptive = true;  ///< false: a_t = start for ever (Fig. 12's non-adaptive weights)
  };
  WeightSchedule() = default;
  /// Throws std::invalid_argument (see validate).
  explicit WeightSchedule(Options options);

  /// Rejects a schedule whose weights would be meaningless, naming the exploration.weights.*
  /// key and value: start and end finite with 1 <= end <= start; hold, decay >= 0.
  static void validate(const Options& options);

  /// a_t for round t >= 0.
  double a(int t) const;
  /// P x N matrix of weights for round t: row i holds w_n^(i) over agents n and sums to 1.
  /// agent_region[n] is the region agent n explores.
  Eigen::MatrixXd weights(int t, const std::vector<int>& agent_region, int regions) const;

  const Options& options() const { return options_; }

 private:
  /// log(h(a_t) / h(1)) >= 0: a_t - 1 (softmax), log a_t (linear), 2 log a_t (quadratic), 0.
  double log_ratio(int t) const;

  Options options_;
};

/// exploration.weights.*; end <= start is checked as it is read.
const schema::Group<WeightSchedule::Options>& weight_keys();

}  // namespace fbosim::de

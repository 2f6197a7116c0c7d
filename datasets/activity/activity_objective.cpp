#include "datasets/activity/activity_objective.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "datasets/activity/softmax_regression.hpp"

namespace fbosim::datasets {

ActivitySpec::Ranges ActivitySpec::ranges_of(const std::string& name) {
  return kActivityRangesNames.parse(name, "objective.ranges");
}

ActivityHyperparameters ActivityHyperparameters::from_unit(const Eigen::VectorXd& x,
                                                           const ActivitySpec::Ranges& r) {
  bool ok = x.size() == 3;
  for (Eigen::Index i = 0; ok && i < 3; ++i) ok = x[i] >= 0.0 && x[i] <= 1.0;  // false on NaN
  if (!ok) {
    std::ostringstream msg;
    msg << "activity objective: x must be a 3-vector in [0,1]^3, got [" << x.transpose() << "]";
    throw std::invalid_argument(msg.str());
  }
  ActivityHyperparameters h{};
  h.batch_size = static_cast<int>(std::lround(r.batch_lo + x[0] * (r.batch_hi - r.batch_lo)));
  h.l2 = r.l2_lo + x[1] * (r.l2_hi - r.l2_lo);
  h.learning_rate = r.rate_lo + x[2] * (r.rate_hi - r.rate_lo);
  return h;
}

ActivityObjective::ActivityObjective(std::shared_ptr<const SubjectData> data, int epochs,
                                     ActivitySpec::Ranges ranges)
    : data_(std::move(data)), epochs_(epochs), ranges_(ranges) {
  domain_.dim = 3;
}

double ActivityObjective::observe(const Eigen::VectorXd& x, core::RngStream& rng) const {
  const ActivityHyperparameters h = ActivityHyperparameters::from_unit(x, ranges_);
  SoftmaxRegression model(HarData::kFeatures, HarData::kClasses);
  model.fit(data_->train_x, data_->train_y, {h.batch_size, h.l2, h.learning_rate, epochs_}, rng);
  // A diverged fit keeps its last finite parameters and is scored like any other model.
  return model.accuracy(data_->val_x, data_->val_y);
}

double ActivityObjective::evaluate(const Eigen::VectorXd& x) const {
  core::RngStream rng =
      core::RngFactory(0, 0).stream("activity.evaluate", static_cast<std::uint64_t>(subject()));
  return observe(x, rng);
}

Objective::Evaluation ActivityObjective::query(const Eigen::VectorXd& x,
                                               core::RngStream& rng) const {
  const double score = observe(x, rng);
  return {score, score};
}

namespace {
void validate(const ActivitySpec& spec) {
  if (spec.epochs < 1 || spec.epochs > 100000)
    throw std::invalid_argument("objective.epochs must be in [1, 100000], got " +
                                std::to_string(spec.epochs));
}

HarData load(const ActivitySpec& spec) {
  validate(spec);
  if (spec.data_dir.empty())
    throw std::invalid_argument(
        "objective.data_dir must name the 'UCI HAR Dataset' folder, got ''");
  return HarData::load(spec.data_dir);
}
}  // namespace

ActivityFamily::ActivityFamily(const ActivitySpec& spec) : ActivityFamily(spec, load(spec)) {}

ActivityFamily::ActivityFamily(const ActivitySpec& spec, const HarData& data) {
  validate(spec);
  for (int subject : data.subject_ids())
    objectives_.push_back(std::make_shared<const ActivityObjective>(
        std::make_shared<const SubjectData>(SubjectData::split(data, subject, spec.split_seed)),
        spec.epochs, spec.ranges));
}

void ActivityFamily::check_agents(int agents) const {
  if (agents < 1 || agents > max_agents())
    throw std::invalid_argument("activity: agents must be in [1, " + std::to_string(max_agents()) +
                                "] (one per UCI HAR subject found), got " + std::to_string(agents));
}

std::vector<std::int64_t> ActivityFamily::records(int agents) const {
  check_agents(agents);
  std::vector<std::int64_t> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(objectives_[static_cast<std::size_t>(n)]->data().train_x.rows());
  return out;
}

std::vector<std::shared_ptr<const Objective>> ActivityFamily::make(
    int agents, const core::RngFactory& /*rng*/) const {
  check_agents(agents);
  return {objectives_.begin(), objectives_.begin() + agents};
}

}  // namespace fbosim::datasets

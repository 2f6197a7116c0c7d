#include "datasets/landmine/landmine_logistic.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/cancellation.hpp"
#include "datasets/missing_data.hpp"
#include "datasets/objective_family_entry.hpp"
#include "datasets/score_objective.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

namespace {

void check_spec(const LandmineLogisticSpec& s) {
  if (!(s.lambda_min > 0 && std::isfinite(s.lambda_min)))
    throw std::invalid_argument(fmt::format(
        "objective.lambda_min: must be > 0 (the release's sensitivity grows as 1 / lambda_min), "
        "got {}",
        s.lambda_min));
  if (!(s.lambda_max >= s.lambda_min && std::isfinite(s.lambda_max)))
    throw std::invalid_argument(
        fmt::format("objective.lambda_max: must be >= objective.lambda_min = {}, got {}",
                    s.lambda_min, s.lambda_max));
  if (!(s.gradient_tolerance > 0 && s.gradient_tolerance <= 1e-3))
    throw std::invalid_argument(fmt::format(
        "objective.gradient_tolerance: must be in (0, 1e-3], got {}", s.gradient_tolerance));
}

class LandmineLogisticObjective final : public ScoreObjective {
 public:
  LandmineLogisticObjective(std::shared_ptr<const LogisticField> field, int agent,
                            const LandmineLogisticSpec& spec)
      : ScoreObjective(1, "landmine_logistic.evaluate", agent),
        field_(std::move(field)),
        spec_(spec) {
    check_spec(spec_);
  }

  std::optional<core::ConvexLipschitzScore> convex_lipschitz_score() const override {
    core::ConvexLipschitzScore s;
    s.lambda_min = spec_.lambda_min;
    s.lambda_max = spec_.lambda_max;
    s.loss_gradient_bound = 1;  // ||grad log(1 + exp(-y w^T x))|| <= ||x|| <= 1
    s.score_lipschitz = 0.25;   // ||grad sigma(y w^T x)|| = sigma (1 - sigma) ||x|| <= 1/4
    s.score_range = 1;          // sigma in (0, 1)
    s.gradient_tolerance = spec_.gradient_tolerance;
    s.validation_size = static_cast<long long>(field_->valid_y.size());
    return s;
  }

 protected:
  double score(const Eigen::VectorXd& x, core::RngStream&) const override {
    const LogisticFit fit = fit_logistic(field_->train_x, field_->train_y,
                                         logistic_lambda(spec_, x), spec_.gradient_tolerance);
    return mean_true_label_probability(field_->valid_x, field_->valid_y, fit.w);
  }

 private:
  std::shared_ptr<const LogisticField> field_;
  LandmineLogisticSpec spec_;
};

std::vector<int> plus_minus(const std::vector<int>& y01) {
  std::vector<int> out(y01.size());
  for (std::size_t i = 0; i < y01.size(); ++i) out[i] = y01[i] == 1 ? 1 : -1;
  return out;
}

}  // namespace

double logistic_lambda(const LandmineLogisticSpec& spec, const Eigen::VectorXd& x) {
  if (x.size() != 1 || !(x[0] >= 0 && x[0] <= 1))
    throw std::invalid_argument(
        fmt::format("landmine_logistic: x must be a point of [0,1], got [{}]",
                    fmt::join(x.data(), x.data() + x.size(), ", ")));
  if (x[0] == 0) return spec.lambda_min;  // the range's ends exactly
  if (x[0] == 1) return spec.lambda_max;
  return spec.lambda_min * std::pow(spec.lambda_max / spec.lambda_min, x[0]);
}

LogisticField LogisticField::of(const LandmineSplit& split) {
  const LogisticFeatures phi(split.train_x);  // fitted on the public training half only
  return {phi.map(split.train_x), phi.map(split.valid_x), plus_minus(split.train_y),
          plus_minus(split.valid_y)};
}

std::shared_ptr<const Objective> make_landmine_logistic_objective(
    std::shared_ptr<const LogisticField> field, int agent, const LandmineLogisticSpec& spec) {
  return std::make_shared<LandmineLogisticObjective>(std::move(field), agent, spec);
}

LandmineLogisticFamily::LandmineLogisticFamily(const LandmineLogisticSpec& spec) : spec_(spec) {
  check_spec(spec_);
  const std::vector<LandmineField> fields = load_landmine(spec.data.path);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    core::throw_if_cancelled();
    const LandmineSplit split =
        spec.data.split == LandmineSplitKind::authors
            ? authors_split(fields[i])
            : split_field(fields[i], spec.data.split_seed, static_cast<int>(i));
    fields_.push_back(std::make_shared<const LogisticField>(LogisticField::of(split)));
  }
}

void LandmineLogisticFamily::check_agents(int agents) const {
  if (agents < 1 || agents > max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: landmine_logistic has {} fields, got {}", max_agents(), agents));
}

std::vector<std::int64_t> LandmineLogisticFamily::records(int agents) const {
  check_agents(agents);
  std::vector<std::int64_t> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(fields_[static_cast<std::size_t>(n)]->train_x.rows());
  return out;
}

std::vector<std::shared_ptr<const Objective>> LandmineLogisticFamily::make(
    int agents, const core::RngFactory&) const {
  check_agents(agents);
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(make_landmine_logistic_objective(fields_[static_cast<std::size_t>(n)], n, spec_));
  return out;
}

const schema::Group<LandmineLogisticSpec>& landmine_logistic_keys() {
  using S = LandmineLogisticSpec;
  using schema::Range;
  static const auto g =
      schema::Group<S>{}
          .include(landmine_split_keys(), &S::data)
          .real("objective.lambda_min", &S::lambda_min, Range::above(0),
                "`landmine_logistic`: the smallest L2 strength lambda searched (x = 0; log "
                "scale); Kusner et al.'s Algorithm 3 adds noise growing as 1 / lambda_min")
          .real("objective.lambda_max", &S::lambda_max, Range::above(0),
                "`landmine_logistic`: the largest L2 strength lambda searched (x = 1)")
          .check([](const S& s, schema::Problems& p) {
            if (!(s.lambda_max >= s.lambda_min))
              p.push_back({"objective.lambda_max",
                           fmt::format("must be >= objective.lambda_min = {}", s.lambda_min)});
          })
          .real("objective.gradient_tolerance", &S::gradient_tolerance, Range::left_open(0, 1e-3),
                "`landmine_logistic`: Newton's method stops when the training objective's "
                "gradient norm is at most this; the release adds 2 tolerance / lambda_min to the "
                "models' distance (the trained model is within tolerance / lambda of the "
                "minimiser)");
  return g;
}

void register_landmine_logistic_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<LandmineLogisticSpec>(
      "landmine_logistic",
      "landmine detection with L2-regularised logistic regression: agent n tunes lambda on field "
      "n, validation mean probability of the true label; satisfies Kusner et al.'s Assumption 2 "
      "(dp_bo's release.mechanism: kusner_lipschitz)",
      landmine_logistic_keys(), LandmineLogisticSpec{},
      [](const LandmineLogisticSpec& spec, const std::string& root) {
        LandmineLogisticSpec l = spec;
        if (l.data.path.empty()) l.data.path = LandmineSpec::default_path(root);
        if (auto m = missing_data("landmine", l.data.path, root)) throw std::runtime_error(*m);
        return std::make_unique<LandmineLogisticFamily>(l);
      },
      [](const LandmineLogisticSpec&) {
        ObjectiveShape shape{core::DomainKind::box, 1, 0, ""};
        shape.convex_lipschitz_score = true;
        return shape;
      });
  e.needs_data = true;
  e.max_agents = 29;  // the fields of LandmineData.mat
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets

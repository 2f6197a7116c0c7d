#include "datasets/branin/branin_family.hpp"

#include <cmath>
#include <numbers>

#include "schema/group.hpp"

namespace fbosim::datasets::branin {

double branin(double u, double v) {
  constexpr double pi = std::numbers::pi;
  constexpr double b = 5.1 / (4 * pi * pi), c = 5 / pi, r = 6, s = 10, t = 1 / (8 * pi);
  const double q = v - b * u * u + c * u - r;
  return q * q + s * (1 - t) * std::cos(u) + s;
}

double value(const Eigen::Vector2d& x) { return -branin(-5 + 15 * x[0], 15 * x[1]); }

// branin(pi, 2.275) = 10 (1 - 1/(8 pi)) cos(pi) + 10 = 10 / (8 pi) = 5 / (4 pi), exactly: the
// squared term vanishes there (2.275 - 5.1/4 + 5 - 6 = 0).
double optimum() { return -5 / (4 * std::numbers::pi); }

namespace {

class BraninObjective final : public Objective {
 public:
  BraninObjective(const BraninSpec& spec, const core::Domain& domain)
      : noise_sd_(std::sqrt(spec.noise_var)), domain_(domain) {}
  const core::Domain& domain() const override { return domain_; }
  double evaluate(const Eigen::VectorXd& x) const override {
    return value(Eigen::Vector2d(x[0], x[1]));
  }
  double observe(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    return evaluate(x) + (noise_sd_ > 0 ? noise_sd_ * rng.normal() : 0.0);
  }
  // On a grid the best grid point, else the function's maximum.
  std::optional<double> optimum() const override {
    if (!domain_.is_grid()) return branin::optimum();
    double best = -INFINITY;
    for (Eigen::Index i = 0; i < domain_.grid.rows(); ++i)
      best = std::max(best, value(domain_.grid.row(i).transpose()));
    return best;
  }

 private:
  double noise_sd_;
  core::Domain domain_;
};

core::Domain domain_of(const BraninSpec& s) {
  core::Domain d;
  d.dim = 2;
  if (s.grid_side == 0) return d;
  const int k = s.grid_side;
  d.grid.resize(static_cast<Eigen::Index>(k) * k, 2);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      d.grid.row(static_cast<Eigen::Index>(i) * k + j) << static_cast<double>(i) / (k - 1),
          static_cast<double>(j) / (k - 1);
  return d;
}

}  // namespace

std::vector<std::shared_ptr<const Objective>> BraninFamily::make(int agents,
                                                                 const core::RngFactory&) const {
  const auto one = std::make_shared<const BraninObjective>(spec_, domain_of(spec_));
  return std::vector<std::shared_ptr<const Objective>>(static_cast<std::size_t>(agents), one);
}

const schema::Group<BraninSpec>& branin_keys() {
  using schema::Range;
  static const auto g =
      schema::Group<BraninSpec>{}
          .real("objective.noise_var", &BraninSpec::noise_var, Range::at_least(0),
                "observation noise variance")
          .integer("objective.branin_grid", &BraninSpec::grid_side, Range::closed(0, 1000),
                   "`branin`: 0 for the continuous square, k >= 2 for the k x k grid on it (a "
                   "finite domain)")
          .check([](const BraninSpec& s, schema::Problems& p) {
            if (s.grid_side == 1) p.push_back({"objective.branin_grid", "must be 0 or >= 2"});
          });
  return g;
}

void register_branin_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<BraninSpec>(
      "branin",
      "the Branin-Hoo benchmark, maximised as -branin on [-5,10] x [0,15] (PO-GP-UCB App. A); "
      "the same function for every agent",
      branin_keys(), BraninSpec{},
      [](const BraninSpec& s, const std::string&) { return std::make_unique<BraninFamily>(s); },
      [](const BraninSpec& s) {
        return s.grid_side == 0
                   ? ObjectiveShape{core::DomainKind::box, 2, 0, "objective.branin_grid"}
                   : ObjectiveShape{core::DomainKind::grid, 2,
                                    static_cast<long long>(s.grid_side) * s.grid_side,
                                    "objective.branin_grid"};
      });
  e.optimum_known = true;
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets::branin

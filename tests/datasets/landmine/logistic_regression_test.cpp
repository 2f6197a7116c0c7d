// L2-regularised logistic regression and the landmine_logistic objective (issue 29: Kusner et
// al.'s Algorithm 3): the trainer's minimiser against scikit-learn and scipy, the feature map's
// unit ball, the certificate of Assumption 2, and Theorem 7's bound checked on real data
// against neighbouring validation sets with adversarial records.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "datasets/landmine/landmine_logistic.hpp"
#include "datasets/landmine/landmine_split.hpp"
#include "datasets/landmine/logistic_regression.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim;
using namespace fbosim::datasets;

namespace {

const std::string kMat = fbosim::testing::data_path("landmine/LandmineData.mat");

// The data of tests/tools/logistic_reference.py: 12 rows, the last column 1 / sqrt(3).
Eigen::MatrixXd small_x() {
  Eigen::MatrixXd x(12, 3);
  for (int i = 0; i < 12; ++i)
    x.row(i) << 0.1 * ((7 * i) % 11) - 0.5, 0.08 * ((5 * i + 3) % 13) - 0.45, 1 / std::sqrt(3.0);
  return x;
}

std::vector<int> small_y() {
  std::vector<int> y;
  for (int i = 0; i < 12; ++i) y.push_back((i * 37) % 5 < 2 ? 1 : -1);
  return y;
}

double sigmoid(double t) { return 1 / (1 + std::exp(-t)); }

}  // namespace

TEST_CASE(
    "logistic regression: the minimiser of lambda/2 |w|^2 + mean log-loss, as scikit-learn's") {
  // References: tests/tools/logistic_reference.py (scikit-learn 1.2.1's
  // LogisticRegression(penalty="l2", C=1/(n lambda), fit_intercept=False, solver="newton-cg"),
  // checked there against scipy's BFGS on the objective itself to 1e-7).
  struct Ref {
    double lambda;
    Eigen::Vector3d w;
    double objective, score;
  };
  const Ref refs[] = {
      {0.05, {-0.459661790085, -1.158804925463, -0.396176618154}, 0.623801239523, 0.567453512450},
      {1.0, {-0.043944742102, -0.083643193233, -0.044693688022}, 0.687475292475, 0.505670264239},
  };
  const Eigen::MatrixXd x = small_x();
  const std::vector<int> y = small_y();
  for (const Ref& r : refs) {
    INFO("lambda " << r.lambda);
    const LogisticFit fit = fit_logistic(x, y, r.lambda, 1e-12);
    CHECK(fit.gradient_norm <= 1e-12);
    CHECK((fit.w - r.w).cwiseAbs().maxCoeff() < 1e-7);
    CHECK(logistic_objective(x, y, r.lambda, fit.w) == Approx(r.objective).epsilon(1e-11));
    CHECK(mean_true_label_probability(x, y, fit.w) == Approx(r.score).epsilon(1e-9));
    // Strong convexity: a model with gradient norm g is within g / lambda of the minimiser.
    const LogisticFit loose = fit_logistic(x, y, r.lambda, 1e-3);
    CHECK((loose.w - fit.w).norm() <= loose.gradient_norm / r.lambda + 1e-12);
  }
  CHECK_THROWS_WITH(fit_logistic(x, y, 0, 1e-9), Catch::Matchers::Contains("lambda"));
  std::vector<int> bad = y;
  bad[3] = 0;
  CHECK_THROWS_WITH(fit_logistic(x, bad, 1, 1e-9), Catch::Matchers::Contains("label 0"));
}

TEST_CASE("LogisticFeatures: fitted on the training rows, every record maps into the unit ball") {
  Eigen::MatrixXd train(4, 2);
  train << 1, 10, 3, 10, 5, 10, 7, 10;  // the second feature constant: its scale is 1
  const LogisticFeatures phi(train);
  // Row 0: z = ((1 - 4) / sqrt(5), 0) (population sd sqrt(5)), u = (z, 1) / sqrt(3), of norm
  // sqrt(2.8 / 3) < 1: unchanged.
  const Eigen::MatrixXd m = phi.map(train);
  const Eigen::Vector3d u(-3 / std::sqrt(5.0) / std::sqrt(3.0), 0, 1 / std::sqrt(3.0));
  CHECK((m.row(0).transpose() - u).norm() < 1e-15);
  // A row at z = (10, 0): (10, 0, 1) / sqrt(3) has norm > 1: projected to (10, 0, 1) / sqrt(101).
  Eigen::MatrixXd far(1, 2);
  far << 4 + 10 * std::sqrt(5.0), 10;
  const Eigen::Vector3d v(10 / std::sqrt(101.0), 0, 1 / std::sqrt(101.0));
  CHECK((phi.map(far).row(0).transpose() - v).norm() < 1e-15);
  // Any record, however extreme, has norm <= 1 (the bound the privacy rests on).
  Eigen::MatrixXd wild(3, 2);
  wild << 1e300, -1e300, -5e7, 3, 0, 1e-300;
  const Eigen::MatrixXd w = phi.map(wild);
  for (Eigen::Index i = 0; i < 3; ++i) CHECK(w.row(i).norm() <= 1 + 1e-15);
  wild(2, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(phi.map(wild), Catch::Matchers::Contains("row 2"));
}

TEST_CASE(
    "landmine_logistic: Kusner et al.'s Theorem 7 holds on field 0 for neighbouring validation "
    "sets with adversarial records and any evaluated hyperparameters") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  // The bound (algorithms/release/convex_lipschitz_sensitivity.hpp), written out here:
  //   Delta = min(r, L (G (1/lmin - 1/lmax) + 2 tau / lmin) + r / m), G = 1, L = 1/4, r = 1.
  // For every pair of candidate lambdas (any two evaluated sets Lambda_V, Lambda_V': their
  // maxima are some f_V(lambda), f_V'(lambda')), |f_V(lambda) - f_V'(lambda')| <= Delta, where V'
  // swaps one record of V for one chosen to move the score most (phi = +-w / |w| of a
  // candidate's model, either label), and each step of the proof holds on its own.
  LandmineLogisticSpec spec;
  spec.lambda_min = 0.5;
  spec.lambda_max = 50;
  spec.gradient_tolerance = 1e-9;
  const LandmineSplit split = split_field(load_landmine(kMat).at(0), 0, 0);
  auto field = std::make_shared<const LogisticField>(LogisticField::of(split));
  const auto objective = make_landmine_logistic_objective(field, 0, spec);
  const auto cert = objective->convex_lipschitz_score();
  REQUIRE(cert);
  CHECK(cert->lambda_min == 0.5);
  CHECK(cert->lambda_max == 50);
  CHECK(cert->loss_gradient_bound == 1);
  CHECK(cert->score_lipschitz == 0.25);
  CHECK(cert->score_range == 1);
  CHECK(cert->gradient_tolerance == 1e-9);
  const auto m = static_cast<long long>(split.valid_y.size());
  CHECK(cert->validation_size == m);
  const double delta =
      std::min(1.0, 0.25 * ((1 / 0.5 - 1 / 50.0) + 2e-9 / 0.5) + 1.0 / static_cast<double>(m));

  const int k = 9;
  std::vector<double> lambdas;
  std::vector<Eigen::VectorXd> models;
  Eigen::VectorXd f_v(k);
  for (int i = 0; i < k; ++i) {
    const Eigen::VectorXd x = Eigen::VectorXd::Constant(1, i / (k - 1.0));
    lambdas.push_back(logistic_lambda(spec, x));
    const LogisticFit fit = fit_logistic(field->train_x, field->train_y, lambdas[i], 1e-9);
    REQUIRE(fit.gradient_norm <= 1e-9);
    models.push_back(fit.w);
    f_v[i] = mean_true_label_probability(field->valid_x, field->valid_y, fit.w);
    CHECK(objective->evaluate(x) == f_v[i]);         // the objective scores this model
    CHECK(fit.w.norm() <= (1 + 1e-9) / lambdas[i]);  // step 3: |w| <= G / lambda (+ tau / lambda)
  }
  CHECK(lambdas.front() == 0.5);
  CHECK(lambdas.back() == 50);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)  // steps 3-4: the models' distance
      CHECK((models[i] - models[j]).norm() <=
            std::abs(1 / lambdas[i] - 1 / lambdas[j]) + 1e-9 / lambdas[i] + 1e-9 / lambdas[j]);
  double worst = 0;
  for (const int swapped : {0, 7, static_cast<int>(m) - 1}) {
    for (int c = 0; c < k; ++c)
      for (const double sign : {1.0, -1.0})
        for (const int label : {1, -1}) {
          Eigen::MatrixXd vx = field->valid_x;
          std::vector<int> vy = field->valid_y;
          vx.row(swapped) = sign * models[c].transpose() / models[c].norm();
          vy[static_cast<std::size_t>(swapped)] = label;
          for (int i = 0; i < k; ++i) {
            const double f_n = mean_true_label_probability(vx, vy, models[i]);
            // Step 2: the same model, one record swapped: <= r / m.
            CHECK(std::abs(f_n - f_v[i]) <= 1.0 / static_cast<double>(m) + 1e-15);
            for (int j = 0; j < k; ++j) worst = std::max(worst, std::abs(f_v[j] - f_n));
          }
        }
  }
  INFO("the largest |f*_V - f*_V'| seen " << worst << ", Delta " << delta);
  CHECK(worst <= delta);
  // Not vacuous: the scores move across the range and with the swap, though far less than the
  // worst case over all data that Delta covers (0.02 against 0.50 here).
  CHECK(worst > 0.01);
  // Step 1's Lipschitz constant: sigma(y w^T x) moves by at most |w - w'| / 4 per record.
  for (Eigen::Index r = 0; r < field->valid_x.rows(); r += 17) {
    const double y = field->valid_y[static_cast<std::size_t>(r)];
    const double a = sigmoid(y * field->valid_x.row(r).dot(models[0]));
    const double b = sigmoid(y * field->valid_x.row(r).dot(models[k - 1]));
    CHECK(std::abs(a - b) <= 0.25 * (models[0] - models[k - 1]).norm() + 1e-15);
  }
}

TEST_CASE("landmine_logistic: lambda on a log scale, refused outside [0, 1], bad ranges refused") {
  LandmineLogisticSpec spec;
  spec.lambda_min = 0.01;
  spec.lambda_max = 100;
  CHECK(logistic_lambda(spec, Eigen::VectorXd::Constant(1, 0.5)) == Approx(1).epsilon(1e-14));
  CHECK(logistic_lambda(spec, Eigen::VectorXd::Constant(1, 0.25)) == Approx(0.1).epsilon(1e-14));
  CHECK_THROWS_WITH(logistic_lambda(spec, Eigen::VectorXd::Constant(1, 1.5)),
                    Catch::Matchers::Contains("[0,1]"));
  auto field = std::make_shared<const LogisticField>();
  spec.lambda_min = 0;
  CHECK_THROWS_WITH(make_landmine_logistic_objective(field, 0, spec),
                    Catch::Matchers::Contains("objective.lambda_min"));
  spec.lambda_min = 2;
  spec.lambda_max = 1;
  CHECK_THROWS_WITH(make_landmine_logistic_objective(field, 0, spec),
                    Catch::Matchers::Contains("objective.lambda_max"));
}

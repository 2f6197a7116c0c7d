#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "datasets/landmine/landmine_objective.hpp"
#include "datasets/landmine/platt_scaling.hpp"
#include "datasets/landmine/roc_auc.hpp"

using namespace fbosim::datasets;

namespace {
const std::string kMat = std::string(FBOSIM_SHARED_DIR) + "/datasets/landmine/LandmineData.mat";
const std::vector<LandmineField>& fields() {
  static const std::vector<LandmineField> f = load_landmine(kMat);
  return f;
}
}  // namespace

TEST_CASE("the real landmine file: 29 fields of 9 features, 445-690 rows, 2.9-9.4% mines") {
  REQUIRE(fields().size() == 29);
  for (const LandmineField& f : fields()) {
    CHECK(f.x.cols() == 9);
    CHECK(f.x.rows() >= 445);
    CHECK(f.x.rows() <= 690);
    CHECK(static_cast<std::size_t>(f.x.rows()) == f.y.size());
    double mines = 0;
    for (int y : f.y) mines += y;
    const double rate = mines / static_cast<double>(f.y.size());
    CHECK(rate >= 0.028);
    CHECK(rate <= 0.095);
  }
}

TEST_CASE("a missing or non-MATLAB landmine file is a clear error naming the path") {
  CHECK_THROWS_WITH(
      load_landmine("/nonexistent/LandmineData.mat"),
      Catch::Contains("/nonexistent/LandmineData.mat") && Catch::Contains("no such file"));
  const auto junk = std::filesystem::temp_directory_path() / "fbosim_junk.mat";
  std::ofstream(junk) << "not a mat file";
  CHECK_THROWS_WITH(load_landmine(junk.string()), Catch::Contains(junk.string()));
}

TEST_CASE("the split is stratified, disjoint, complete and fixed by its seed") {
  const LandmineField& f = fields()[3];
  const LandmineSplit a = split_field(f, 0, 3), b = split_field(f, 0, 3), c = split_field(f, 1, 3);
  int mines = 0, train_mines = 0;
  for (int y : f.y) mines += y;
  for (int y : a.train_y) train_mines += y;
  CHECK(train_mines == mines / 2);
  CHECK(a.train_y.size() == (f.y.size() - mines) / 2 + mines / 2);
  CHECK(a.train_y.size() + a.valid_y.size() == f.y.size());
  CHECK(a.train_x == b.train_x);
  CHECK(a.train_x != c.train_x);
  // Every row lands in exactly one half: the multiset of rows is preserved (sum of features).
  CHECK((a.train_x.colwise().sum() + a.valid_x.colwise().sum() - f.x.colwise().sum())
            .cwiseAbs()
            .maxCoeff() < 1e-9);
}

TEST_CASE("AUC against hand-computed cases, with ties") {
  CHECK(roc_auc({0.1, 0.2, 0.8, 0.9}, {0, 0, 1, 1}) == 1.0);
  CHECK(roc_auc({0.9, 0.8, 0.2, 0.1}, {0, 0, 1, 1}) == 0.0);
  // Pairs (pos, neg): (0.4 > 0.3), (0.4 < 0.6), (0.7 > 0.3), (0.7 > 0.6): 3/4.
  CHECK(roc_auc({0.3, 0.4, 0.6, 0.7}, {0, 1, 0, 1}) == Approx(0.75));
  // A tie between a positive and a negative counts 1/2: pairs (0.5 = 0.5) and (0.5 > 0.2).
  CHECK(roc_auc({0.2, 0.5, 0.5}, {0, 0, 1}) == Approx(0.75));
  CHECK(roc_auc({1, 1, 1, 1}, {0, 1, 0, 1}) == Approx(0.5));
  CHECK_THROWS_AS(roc_auc({0.1, 0.2}, {1, 1}), std::invalid_argument);
  CHECK_THROWS_AS(roc_auc({0.1}, {1, 0}), std::invalid_argument);
}

TEST_CASE("Platt's fit is the minimiser of its regularised log-likelihood") {
  std::vector<double> f;
  std::vector<int> y;
  for (int i = 0; i < 40; ++i) {
    f.push_back(-2 + 0.1 * i);
    y.push_back((i % 3 == 0) != (i > 20) ? 1 : 0);
  }
  const PlattSigmoid s = fit_platt(f, y);
  // Independent check: the gradient of the objective with Platt's targets vanishes.
  double prior1 = 0;
  for (int v : y) prior1 += v;
  const double prior0 = 40 - prior1;
  double g1 = 0, g2 = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const double t = y[i] == 1 ? (prior1 + 1) / (prior1 + 2) : 1 / (prior0 + 2);
    const double p = 1 / (1 + std::exp(s.a * f[i] + s.b));
    g1 += f[i] * (t - p);
    g2 += t - p;
  }
  CHECK(std::abs(g1) < 1e-4);
  CHECK(std::abs(g2) < 1e-4);
  CHECK(s.a < 0);  // larger decision values are more likely positive here
}

TEST_CASE("the hyperparameter maps are linear over C in [1e-4, 10] and gamma in [0.01, 10]") {
  const auto lo = SvmHyperparameters::from_unit(Eigen::Vector2d(0, 0));
  const auto hi = SvmHyperparameters::from_unit(Eigen::Vector2d(1, 1));
  const auto mid = SvmHyperparameters::from_unit(Eigen::Vector2d(0.5, 0.5));
  CHECK(lo.c == Approx(1e-4));
  CHECK(lo.gamma == Approx(0.01));
  CHECK(hi.c == Approx(10));
  CHECK(hi.gamma == Approx(10));
  CHECK(mid.c == Approx((1e-4 + 10) / 2));
  CHECK_THROWS_AS(SvmHyperparameters::from_unit(Eigen::Vector2d(1.5, 0)), std::invalid_argument);
}

TEST_CASE("an SVM learns a real field well above chance, reproducibly from its stream") {
  const LandmineSplit s = split_field(fields()[0], 0, 0);
  const Eigen::Vector2d x(0.5, 0.05);  // C ~ 5, gamma ~ 0.5
  fbosim::core::RngStream r1 = fbosim::core::RngFactory(1, 0).stream("t");
  fbosim::core::RngStream r2 = fbosim::core::RngFactory(1, 0).stream("t");
  const double a = landmine_auc(s, x, 5, r1);
  double b = 0;
  std::thread other([&] { b = landmine_auc(s, x, 5, r2); });  // another thread, same stream
  other.join();
  CHECK(a > 0.7);
  CHECK(a == b);
}

TEST_CASE("the precomputed kernel trains the same SVMs as libsvm's own RBF kernel") {
  // Bit-identical decision values, held-out and validation, hence identical AUCs, over fields
  // and hyperparameters from the corners of [0,1]^2 to the middle.
  const Eigen::Vector2d xs[] = {{0.0, 0.0}, {1.0, 1.0}, {0.5, 0.05}, {0.02, 0.9}, {0.9, 0.3}};
  int evaluations = 0;
  for (int field : {0, 7, 15, 28}) {
    const LandmineSplit s = split_field(fields()[field], 0, field);
    for (const Eigen::Vector2d& x : xs) {
      fbosim::core::RngStream r1 = fbosim::core::RngFactory(3, 0).stream("t", field);
      fbosim::core::RngStream r2 = fbosim::core::RngFactory(3, 0).stream("t", field);
      SvmDecisions pre, rbf;
      const double a = landmine_auc(s, x, 5, r1, SvmKernel::precomputed, &pre);
      const double b = landmine_auc(s, x, 5, r2, SvmKernel::rbf, &rbf);
      INFO("field " << field << " x " << x.transpose());
      CHECK(a == b);
      CHECK(pre.held_out == rbf.held_out);
      CHECK(pre.validation == rbf.validation);
      ++evaluations;
    }
  }
  CHECK(evaluations == 20);
}

TEST_CASE("the family gives one objective per field, refuses more agents than fields") {
  LandmineSpec spec;
  spec.path = kMat;
  const LandmineFamily family(spec);
  CHECK(family.max_agents() == 29);
  const auto objs = family.make(3, fbosim::core::RngFactory(0, 0));
  CHECK(objs.size() == 3);
  CHECK(objs[0]->domain().dim == 2);
  CHECK_FALSE(objs[0]->optimum().has_value());
  CHECK_THROWS_WITH(family.make(30, fbosim::core::RngFactory(0, 0)),
                    Catch::Contains("agents.count"));
}

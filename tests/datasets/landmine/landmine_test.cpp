#include <catch2/catch.hpp>

#include <svm.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include <Eigen/Dense>

#include "datasets/landmine/landmine_objective.hpp"
#include "datasets/landmine/platt_scaling.hpp"
#include "datasets/landmine/rbf_distances.hpp"
#include "datasets/landmine/roc_auc.hpp"
#include "datasets/sklearn/stratified_split.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim::datasets;

namespace {
const std::string kMat = fbosim::testing::data_path("landmine/LandmineData.mat");
const std::vector<LandmineField>& fields() {
  static const std::vector<LandmineField> f = load_landmine(kMat);
  return f;
}
}  // namespace

TEST_CASE("the real landmine file: 29 fields of 9 features, 445-690 rows, 2.9-9.4% mines") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
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
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
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
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  const LandmineSplit s = split_field(fields()[0], 0, 0);
  const Eigen::Vector2d x(0.5, 0.05);  // C ~ 5, gamma ~ 0.5
  fbosim::core::RngStream r1 = fbosim::core::RngFactory(1, 0).stream("t");
  fbosim::core::RngStream r2 = fbosim::core::RngFactory(1, 0).stream("t");
  const double a = landmine_auc(s, x, SvmOptions{}, r1);
  double b = 0;
  std::thread other(
      [&] { b = landmine_auc(s, x, SvmOptions{}, r2); });  // another thread, same stream
  other.join();
  CHECK(a > 0.7);
  CHECK(a == b);
}

TEST_CASE("fbosim's kernels and solver give libsvm's own decision values and AUCs, bit for bit") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  // libsvm 3.24 with kernel_type RBF computes every kernel value itself in every training: the
  // same held-out and validation decision values, hence the same AUCs, over both splits, both
  // class orders, fields of several sizes, and hyperparameters from the corners of [0,1]^2 to
  // the middle and at random.
  std::vector<Eigen::Vector2d> xs = {{0.0, 0.0}, {1.0, 1.0}, {0.5, 0.05}, {0.02, 0.9}, {0.9, 0.3}};
  fbosim::core::RngStream draw(2027);
  for (int i = 0; i < 5; ++i) xs.emplace_back(draw.uniform(), draw.uniform());
  int evaluations = 0;
  for (int field : {0, 7, 15, 28}) {
    for (const LandmineSplit& s :
         {split_field(fields()[field], 0, field), authors_split(fields()[field])}) {
      for (SvmClassOrder order : {SvmClassOrder::sklearn, SvmClassOrder::mine_first}) {
        const SvmOptions o{5, order, SvmProbability::sklearn};
        for (const Eigen::Vector2d& x : xs) {
          fbosim::core::RngStream r1 = fbosim::core::RngFactory(3, 0).stream("t", field);
          fbosim::core::RngStream r2 = fbosim::core::RngFactory(3, 0).stream("t", field);
          SvmDecisions own, reference;
          const double a = landmine_auc(s, x, o, r1, SvmEngine::fbosim_std_exp, &own);
          const double b = landmine_auc(s, x, o, r2, SvmEngine::libsvm, &reference);
          INFO("field " << field << " x " << x.transpose() << " order " << to_string(order));
          CHECK(a == b);
          CHECK(own.held_out == reference.held_out);
          CHECK(own.validation == reference.validation);
          ++evaluations;
        }
      }
    }
  }
  CHECK(evaluations == 4 * 2 * 2 * 10);
}

TEST_CASE("the vectorised exp moves the landmine AUCs by rounding only") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  // fbosim's engine with core::fast_exp (within 2 ulp of exp, the same bits on every CPU)
  // against the same with std::exp (libsvm's values, above): the kernel values differ in their
  // last bits, which the solver's tolerance (eps = 1e-3) and the ranks of the AUC mostly absorb.
  fbosim::core::RngStream draw(2028);
  int evaluations = 0, identical = 0;
  double worst = 0;
  for (int field = 0; field < 29; field += 2) {
    const LandmineSplit s = authors_split(fields()[field]);
    for (int i = 0; i < 6; ++i) {
      const Eigen::Vector2d x(draw.uniform(), draw.uniform());
      fbosim::core::RngStream r1 = fbosim::core::RngFactory(4, 0).stream("t", field);
      fbosim::core::RngStream r2 = fbosim::core::RngFactory(4, 0).stream("t", field);
      const double a = landmine_auc(s, x, SvmOptions{}, r1, SvmEngine::fbosim);
      const double b = landmine_auc(s, x, SvmOptions{}, r2, SvmEngine::fbosim_std_exp);
      worst = std::max(worst, std::abs(a - b));
      identical += a == b;
      ++evaluations;
    }
  }
  INFO(identical << " of " << evaluations << " AUCs identical; the largest difference " << worst);
  CHECK(evaluations == 90);
  CHECK(identical >= 80);
  CHECK(worst < 2e-3);
}

TEST_CASE("the cached distances give libsvm's kernel values of a point and a support vector") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  // libsvm's own k_function: the decision value of a model with one support vector x_c, the
  // coefficient 1 and rho 0 is exactly K(p, x_c) = exp(-gamma sum_k (p_k - x_ck)^2).
  const LandmineSplit s = split_field(fields()[5], 0, 5);
  REQUIRE(s.distances);
  const RbfDistances& d = *s.distances;
  const auto n = static_cast<std::size_t>(s.train_x.rows());
  const auto m = static_cast<std::size_t>(s.valid_x.rows());
  REQUIRE(d.train_size() == static_cast<int>(n));
  REQUIRE(d.valid_size() == static_cast<int>(m));
  const auto nodes = [](const Eigen::MatrixXd& x, Eigen::Index r) {
    std::vector<svm_node> v;
    for (Eigen::Index k = 0; k < x.cols(); ++k) v.push_back({static_cast<int>(k + 1), x(r, k)});
    v.push_back({-1, 0.0});
    return v;
  };
  int mismatches = 0, checked = 0;
  for (double gamma : {0.01, 0.7, 10.0}) {
    for (std::size_t c = 0; c < n; c += 13) {
      std::vector<svm_node> sv = nodes(s.train_x, static_cast<Eigen::Index>(c));
      svm_node* sv_row = sv.data();
      double coef = 1, rho = 0;
      double* coefs = &coef;
      int nsv[2] = {1, 0}, label[2] = {1, -1};
      svm_model model{};
      model.param.svm_type = C_SVC;
      model.param.kernel_type = RBF;
      model.param.gamma = gamma;
      model.nr_class = 2;
      model.l = 1;
      model.SV = &sv_row;
      model.sv_coef = &coefs;
      model.rho = &rho;
      model.nSV = nsv;
      model.label = label;
      const auto libsvm = [&](const std::vector<svm_node>& p) {
        double value = 0;
        svm_predict_values(&model, p.data(), &value);
        return value;
      };
      for (std::size_t r = 0; r < n; r += 7) {
        const double sum = r >= c ? d.train_diff()[RbfDistances::packed(r, c)]
                                  : d.train_diff()[RbfDistances::packed(c, r)];
        mismatches +=
            std::exp(-sum * gamma) != libsvm(nodes(s.train_x, static_cast<Eigen::Index>(r)));
        ++checked;
      }
      for (std::size_t i = 0; i < m; i += 7) {
        const double sum = d.valid_diff()[c * m + i];
        mismatches +=
            std::exp(-sum * gamma) != libsvm(nodes(s.valid_x, static_cast<Eigen::Index>(i)));
        ++checked;
      }
    }
  }
  CHECK(checked > 2000);
  CHECK(mismatches == 0);
  // The diagonal of the training distances is exactly 0 in both forms (K(x, x) = 1).
  for (std::size_t r = 0; r < n; ++r) {
    CHECK(d.train_diff()[RbfDistances::packed(r, r)] == 0.0);
    CHECK(d.train_rbf()[RbfDistances::packed(r, r)] == 0.0);
  }
}

TEST_CASE("the family gives one objective per field, refuses more agents than fields") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
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

TEST_CASE("pairwise coupling of two classes: 1/2 within 0.005 of it, else within 0.005") {
  // For k = 2 the minimiser of p'Qp with sum p = 1 is (r01, r10); libsvm's iteration stops as
  // soon as max_t |(Qp)_t - p'Qp| < 0.0025, which at the start p = (1/2, 1/2) is
  // |r01 - r10| / 4: inside (0.495, 0.505) it returns 1/2 exactly.
  for (double r : {0.4951, 0.4999, 0.5, 0.5049}) {
    const std::vector<double> p = pairwise_coupling({{0, r}, {1 - r, 0}});
    CHECK(p[0] == 0.5);
    CHECK(p[1] == 0.5);
  }
  for (double r : {1e-7, 1e-3, 0.1, 0.3, 0.49, 0.506, 0.7, 0.999, 1 - 1e-7}) {
    const std::vector<double> p = pairwise_coupling({{0, r}, {1 - r, 0}});
    CHECK(std::abs(p[0] - r) < 0.005);
    CHECK(p[0] + p[1] == Approx(1.0).margin(1e-15));
    CHECK(p[0] != 0.5);
  }
  CHECK_THROWS_AS(pairwise_coupling({{0, 1}}), std::invalid_argument);
}

TEST_CASE("pairwise coupling of three classes approaches the constrained minimiser of p'Qp") {
  // Independent: solve min p'Qp subject to sum p = 1 from its KKT system [2Q 1; 1' 0].
  const double r01 = 0.7, r02 = 0.6, r12 = 0.35;  // inconsistent pairwise estimates
  const std::vector<std::vector<double>> r = {
      {0, r01, r02}, {1 - r01, 0, r12}, {1 - r02, 1 - r12, 0}};
  Eigen::Matrix3d q;
  for (int t = 0; t < 3; ++t)
    for (int j = 0; j < 3; ++j) {
      q(t, j) = 0;
      if (t == j) {
        for (int s = 0; s < 3; ++s)
          if (s != t) q(t, t) += r[s][t] * r[s][t];
      } else {
        q(t, j) = -r[j][t] * r[t][j];
      }
    }
  Eigen::Matrix4d kkt = Eigen::Matrix4d::Zero();
  kkt.topLeftCorner<3, 3>() = 2 * q;
  kkt.block<3, 1>(0, 3).setOnes();
  kkt.block<1, 3>(3, 0).setOnes();
  const Eigen::Vector4d sol = kkt.lu().solve(Eigen::Vector4d(0, 0, 0, 1));
  const std::vector<double> p = pairwise_coupling(r);
  for (int t = 0; t < 3; ++t) CHECK(p[t] == Approx(sol[t]).margin(0.005));
  CHECK(p[0] + p[1] + p[2] == Approx(1.0));
}

TEST_CASE("the authors' split: scikit-learn's rows in its order, half of each class") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  const LandmineField& f = fields()[3];
  const LandmineSplit a = authors_split(f);
  const TrainTestIndices t = stratified_train_test_split(f.y, 0.5, 0);
  REQUIRE(static_cast<std::size_t>(a.train_x.rows()) == t.train.size());
  for (std::size_t i = 0; i < t.train.size(); ++i) {
    CHECK(a.train_x.row(static_cast<Eigen::Index>(i)) == f.x.row(t.train[i]));
    CHECK(a.train_y[i] == f.y[static_cast<std::size_t>(t.train[i])]);
  }
  CHECK(a.valid_y.size() == t.test.size());
  CHECK(a.train_y.size() + a.valid_y.size() == f.y.size());
  CHECK(parse_landmine_split("authors") == LandmineSplitKind::authors);
  CHECK_THROWS_AS(parse_landmine_split("sklearn"), std::invalid_argument);
}

TEST_CASE("scikit-learn's class order: grouped rows, the same model up to the solver's tolerance") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  const LandmineSplit s = authors_split(fields()[7]);
  const std::vector<int> rows = problem_rows(s, SvmClassOrder::sklearn);
  std::size_t no_mines = 0;
  for (int y : s.train_y) no_mines += y == 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(s.train_y[static_cast<std::size_t>(rows[i])] == (i < no_mines ? 0 : 1));
    if (i > 0 && i != no_mines) CHECK(rows[i] > rows[i - 1]);  // training order kept
  }
  CHECK(problem_rows(s, SvmClassOrder::mine_first).front() == 0);
  // The final models solve the same problem with the classes swapped: decision values of
  // opposite orientation, equal within the tolerance 1e-3 the solver stops at (scaled).
  for (const Eigen::Vector2d& x : {Eigen::Vector2d(0.5, 0.05), Eigen::Vector2d(0.02, 0.9)}) {
    fbosim::core::RngStream r1 = fbosim::core::RngFactory(4, 0).stream("t");
    fbosim::core::RngStream r2 = fbosim::core::RngFactory(4, 0).stream("t");
    SvmDecisions mine, sk;
    const double a =
        landmine_auc(s, x, SvmOptions{5, SvmClassOrder::mine_first, SvmProbability::sigmoid}, r1,
                     SvmEngine::fbosim, &mine);
    const double b =
        landmine_auc(s, x, SvmOptions{5, SvmClassOrder::sklearn, SvmProbability::sigmoid}, r2,
                     SvmEngine::fbosim, &sk);
    double largest = 0;
    for (std::size_t i = 0; i < mine.validation.size(); ++i)
      largest = std::max(largest, std::abs(mine.validation[i] + sk.validation[i]));
    INFO("x " << x.transpose());
    CHECK(largest < 0.01);
    CHECK(largest > 0);  // a different solver path, not the same arithmetic
    // The validation ranking of the decision values (the AUC before Platt's sigmoid, which
    // the folds may turn round) is nearly the same.
    std::vector<double> towards_mine = sk.validation;
    for (double& v : towards_mine) v = -v;
    CHECK(std::abs(roc_auc(mine.validation, s.valid_y) - roc_auc(towards_mine, s.valid_y)) < 0.02);
    CHECK((a >= 0 && a <= 1 && b >= 0 && b <= 1));
  }
}

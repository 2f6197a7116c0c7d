#include <catch2/catch.hpp>

#include <svm.h>

#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "datasets/landmine/landmine_data.hpp"
#include "datasets/landmine/landmine_split.hpp"
#include "datasets/landmine/svc_solver.hpp"
#include "core/rng.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim::datasets;

namespace {

const std::vector<LandmineField>& fields() {
  static const std::vector<LandmineField> f =
      load_landmine(fbosim::testing::data_path("landmine/LandmineData.mat"));
  return f;
}

void quiet(const char*) {}

struct ModelDeleter {
  void operator()(svm_model* m) const { svm_free_and_destroy_model(&m); }
};

// A training problem on the kernel K (n x n, double) of points 0..n-1: train_svc's model against
// libsvm 3.24's svm_train on the same kernel in its precomputed mode (which rounds K to float
// for Q itself), bit for bit: the support vectors, their coefficients and rho.
bool same_model(const std::vector<double>& k, std::size_t n, const std::vector<int>& points,
                const std::vector<int>& labels, double c) {
  // libsvm: row r is (0, serial number), then (j + 1, K(point, j)) for all j, then -1.
  std::vector<svm_node> nodes(points.size() * (n + 2));
  std::vector<svm_node*> rows(points.size());
  std::vector<double> y(points.size());
  for (std::size_t r = 0; r < points.size(); ++r) {
    svm_node* row = &nodes[r * (n + 2)];
    const auto p = static_cast<std::size_t>(points[r]);
    row[0] = {0, static_cast<double>(p + 1)};
    for (std::size_t j = 0; j < n; ++j) row[j + 1] = {static_cast<int>(j + 1), k[p * n + j]};
    row[n + 1] = {-1, 0.0};
    rows[r] = row;
    y[r] = labels[r];
  }
  svm_set_print_string_function(&quiet);
  svm_problem problem{static_cast<int>(points.size()), y.data(), rows.data()};
  svm_parameter param{};
  param.svm_type = C_SVC;
  param.kernel_type = PRECOMPUTED;
  param.C = c;
  param.cache_size = 16;
  param.eps = 1e-3;
  param.shrinking = 1;
  REQUIRE(svm_check_parameter(&problem, &param) == nullptr);
  const std::unique_ptr<svm_model, ModelDeleter> reference(svm_train(&problem, &param));

  std::vector<float> kf(n * n);
  std::vector<double> diagonal(n);
  for (std::size_t i = 0; i < n * n; ++i) kf[i] = static_cast<float>(k[i]);
  for (std::size_t i = 0; i < n; ++i) diagonal[i] = k[i * n + i];
  const SvcModel model = train_svc({kf.data(), n, diagonal.data()}, points, labels, c);

  int first[2] = {0, 0};
  svm_get_labels(reference.get(), first);
  REQUIRE(first[0] == 1);  // libsvm puts +1 first for labels +-1
  bool same =
      model.rho == reference->rho[0] && model.sv.size() == static_cast<std::size_t>(reference->l);
  for (int s = 0; same && s < reference->l; ++s)
    same = model.sv[s] + 1 == static_cast<int>(reference->SV[s][0].value) &&
           model.coef[s] == reference->sv_coef[0][s];
  return same;
}

}  // namespace

TEST_CASE("train_svc trains libsvm 3.24's models bit for bit on the landmine kernels") {
  if (!fbosim::testing::have_data("landmine/LandmineData.mat")) return;
  // Fields of several sizes; C and gamma over the objective's whole box (corners, middle,
  // random); problems of all the field's training points, in their order and shuffled, and of
  // random subsets (as the cross-validation's fold models).
  fbosim::core::RngStream rng(27);
  int problems = 0, mismatches = 0;
  for (int field : {0, 9, 17, 28}) {
    const LandmineSplit s = authors_split(fields()[field]);
    const auto n = static_cast<std::size_t>(s.train_x.rows());
    std::vector<std::pair<double, double>> hyper = {{1e-4, 0.01}, {10.0, 10.0}, {1e-4, 10.0},
                                                    {10.0, 0.01}, {5.0, 5.0},   {0.05, 1.0}};
    for (int r = 0; r < 4; ++r)
      hyper.push_back({1e-4 + rng.uniform() * (10 - 1e-4), 0.01 + rng.uniform() * (10 - 0.01)});
    for (const auto& [c, gamma] : hyper) {
      std::vector<double> k(n * n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j)
          k[i * n + j] = k[j * n + i] =
              std::exp(-gamma * s.distances->train_rbf()[RbfDistances::packed(i, j)]);
      std::vector<int> all(n);
      std::iota(all.begin(), all.end(), 0);
      std::vector<int> shuffled = all;
      for (std::size_t i = n; i > 1; --i) std::swap(shuffled[i - 1], shuffled[rng.uniform_int(i)]);
      std::vector<int> subset(shuffled.begin(), shuffled.begin() + static_cast<long>(4 * n / 5));
      for (const std::vector<int>* points : {&all, &shuffled, &subset}) {
        for (int first : {1, 0}) {  // either class as libsvm's +1
          std::vector<int> labels;
          for (int p : *points) labels.push_back(s.train_y[p] == first ? 1 : -1);
          INFO("field " << field << " C " << c << " gamma " << gamma << " points " << points->size()
                        << " first " << first);
          const bool same = same_model(k, n, *points, labels, c);
          CHECK(same);
          mismatches += !same;
          ++problems;
        }
      }
    }
  }
  CHECK(problems == 4 * 10 * 3 * 2);
  CHECK(mismatches == 0);
}

TEST_CASE("train_svc refuses one-class problems, bad labels, sizes and C") {
  const std::vector<float> k = {1, 0.5f, 0.5f, 1};
  const std::vector<double> d = {1, 1};
  const SvcKernel kernel{k.data(), 2, d.data()};
  CHECK_THROWS_AS(train_svc(kernel, {0, 1}, {1, 1}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(train_svc(kernel, {0, 1}, {1, 0}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(train_svc(kernel, {0, 1}, {1}, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(train_svc(kernel, {0, 1}, {1, -1}, 0.0), std::invalid_argument);
  // Two points, one per class: alpha = C at the bound, or the closed form below it.
  const SvcModel m = train_svc(kernel, {0, 1}, {1, -1}, 10.0);
  // The dual's optimum: alpha = 2 / (K11 + K22 - 2 K12) = 2 (below C), b = 0 by symmetry.
  REQUIRE(m.sv.size() == 2);
  CHECK(m.coef[0] == Approx(2.0));
  CHECK(m.coef[1] == Approx(-2.0));
  CHECK(m.rho == Approx(0.0).margin(1e-12));
}

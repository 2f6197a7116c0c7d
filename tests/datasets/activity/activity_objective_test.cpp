#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "datasets/activity/activity_objective.hpp"
#include "har_fixture.hpp"

using Catch::Matchers::Contains;
using fbosim::core::RngFactory;
using fbosim::core::RngStream;
using fbosim::datasets::ActivityFamily;
using fbosim::datasets::ActivityHyperparameters;
using fbosim::datasets::ActivityObjective;
using fbosim::datasets::ActivitySpec;
using fbosim::datasets::HarData;

namespace {

Eigen::VectorXd vec(double a, double b, double c) { return Eigen::Vector3d(a, b, c); }

// A HAR tree of three subjects (1, 2 in train, 3 in test), `rows` rows each, classes separated
// by 1.5 sd in 93 features each: learnable far above the 1/6 chance level.
struct Fixture {
  har_fixture::TempDir tmp;
  ActivitySpec spec;
  explicit Fixture(int rows = 60) : tmp("objective" + std::to_string(rows)) {
    RngStream rng(2013);
    spec.data_dir = (tmp.path() / "UCI HAR Dataset").string();
    har_fixture::write_tree(spec.data_dir, har_fixture::make_rows({1, 2}, rows, 1.5, rng),
                            har_fixture::make_rows({3}, rows, 1.5, rng));
  }
};

}  // namespace

TEST_CASE("activity: x -> (batch, L2, learning rate) is linear onto the paper's ranges") {
  const auto lo = ActivityHyperparameters::from_unit(vec(0, 0, 0));
  CHECK(lo.batch_size == 128);
  CHECK(lo.l2 == 1e-6);
  CHECK(lo.learning_rate == 1e-6);
  const auto hi = ActivityHyperparameters::from_unit(vec(1, 1, 1));
  CHECK(hi.batch_size == 512);
  CHECK(hi.l2 == 10.0);
  CHECK(hi.learning_rate == 1.0);
  const auto mid = ActivityHyperparameters::from_unit(vec(0.5, 0.5, 0.5));
  CHECK(mid.batch_size == 320);
  CHECK(mid.l2 == Approx(5.0000005).epsilon(1e-15));
  CHECK(mid.learning_rate == Approx(0.5000005).epsilon(1e-15));
  // 128 + 384 x0 is rounded to the nearest integer: 128.5 (x0 = 1/768) goes up to 129.
  CHECK(ActivityHyperparameters::from_unit(vec(1.0 / 768, 0, 0)).batch_size == 129);
  CHECK(ActivityHyperparameters::from_unit(vec(0.99 / 768, 0, 0)).batch_size == 128);
  CHECK(ActivityHyperparameters::from_unit(vec(1 - 0.99 / 768, 0, 0)).batch_size == 512);
}

TEST_CASE("activity: x outside [0,1]^3 is an error naming the value") {
  // FTS sec. 5.2 (Glass's ranges): batch [20, 60], L2 [1e-6, 1], learning rate [0.01, 0.1].
  const auto fts = ActivitySpec::ranges_of("fts");
  const auto f0 = ActivityHyperparameters::from_unit(vec(0, 0, 0), fts);
  const auto f1 = ActivityHyperparameters::from_unit(vec(1, 1, 1), fts);
  CHECK(f0.batch_size == 20);
  CHECK(f1.batch_size == 60);
  CHECK(f0.l2 == 1e-6);
  CHECK(f1.l2 == Approx(1.0));
  CHECK(f0.learning_rate == 0.01);
  CHECK(f1.learning_rate == Approx(0.1));
  CHECK(ActivityHyperparameters::from_unit(vec(0.5, 0.5, 0.5), fts).batch_size == 40);
  CHECK_THROWS_WITH(ActivitySpec::ranges_of("glass"), Contains("glass"));
  CHECK_THROWS_WITH(ActivityHyperparameters::from_unit(vec(0.5, 1.25, 0)), Contains("1.25"));
  CHECK_THROWS_AS(ActivityHyperparameters::from_unit(vec(-0.1, 0, 0)), std::invalid_argument);
  CHECK_THROWS_AS(ActivityHyperparameters::from_unit(vec(0, NAN, 0)), std::invalid_argument);
  CHECK_THROWS_AS(ActivityHyperparameters::from_unit(Eigen::VectorXd::Zero(2)),
                  std::invalid_argument);
}

TEST_CASE("activity family: one agent per subject found, in subject order, on the unit cube") {
  Fixture f;
  const ActivityFamily family(f.spec);
  REQUIRE(family.max_agents() == 3);
  const auto objs = family.make(3, RngFactory(1, 0));
  REQUIRE(objs.size() == 3);
  for (int n = 0; n < 3; ++n) {
    const auto* o = dynamic_cast<const ActivityObjective*>(objs[n].get());
    REQUIRE(o != nullptr);
    CHECK(o->subject() == n + 1);
    CHECK(o->domain().dim == 3);
    CHECK_FALSE(o->domain().is_grid());
    CHECK_FALSE(o->optimum().has_value());
    CHECK(o->data().train_x.rows() == 30);
    CHECK(o->data().val_x.rows() == 30);
  }
  CHECK(family.make(2, RngFactory(5, 9)).size() == 2);
  CHECK_THROWS_WITH(family.make(4, RngFactory(1, 0)), Contains("got 4"));
  CHECK_THROWS_AS(family.make(0, RngFactory(1, 0)), std::invalid_argument);
}

TEST_CASE("activity records: each subject's training rows, floor(n / 2), in subject order") {
  // Subjects 7, 2, 30 and 5 with 11, 4, 2 and 9 rows, interleaved in file order, labels
  // (5 i + subject) mod 6: odd-sized classes, so the split tops the training half up.
  const std::vector<std::pair<int, int>> rows_of = {{7, 11}, {2, 4}, {30, 2}, {5, 9}};
  HarData data;
  std::vector<int> subjects, labels;
  for (int i = 0; i < 11; ++i)
    for (const auto& [subject, rows] : rows_of)
      if (i < rows) {
        subjects.push_back(subject);
        labels.push_back((i * 5 + subject) % HarData::kClasses);
      }
  const auto n = static_cast<Eigen::Index>(subjects.size());
  REQUIRE(n == 26);
  data.subjects = Eigen::Map<const Eigen::VectorXi>(subjects.data(), n);
  data.labels = Eigen::Map<const Eigen::VectorXi>(labels.data(), n);
  RngStream rng(7);
  data.features = Eigen::MatrixXd::NullaryExpr(n, HarData::kFeatures, [&] { return rng.normal(); });
  ActivitySpec spec;
  spec.split_seed = 3;
  const ActivityFamily family(spec, data);
  REQUIRE(family.max_agents() == 4);
  // Agents in ascending subject id: 2, 5, 7, 30 with 4, 9, 11, 2 rows.
  const std::vector<std::int64_t> expected = {4 / 2, 9 / 2, 11 / 2, 2 / 2};
  CHECK(family.records(4) == expected);
  const auto objs = family.make(4, RngFactory(1, 0));
  for (int a = 0; a < 4; ++a)  // make()'s agent order
    CHECK(dynamic_cast<const ActivityObjective&>(*objs[a]).subject() ==
          std::vector{2, 5, 7, 30}[a]);
  CHECK(family.records(2) == std::vector<std::int64_t>{2, 4});
  CHECK_THROWS_WITH(family.records(5), Contains("[1, 4]") && Contains("got 5"));
  CHECK_THROWS_AS(family.records(0), std::invalid_argument);
}

TEST_CASE("activity: a good setting learns, a divergent one does not, the score is accuracy") {
  Fixture f;
  const auto objs = ActivityFamily(f.spec).make(3, RngFactory(1, 0));
  RngStream rng(6);
  // Batch 128 (full batch here), L2 1e-6, learning rate 0.1.
  const auto good = objs[0]->query(vec(0, 0, 0.1), rng);
  CHECK(good.y == good.f);
  CHECK(good.f > 0.9);  // chance: 1/6
  // The score is a fraction of the 30 validation rows.
  CHECK(std::abs(good.f * 30 - std::round(good.f * 30)) < 1e-9);
  // L2 10 with learning rate 1: SGD diverges and keeps a useless model.
  CHECK(objs[0]->query(vec(0, 1, 1), rng).f < good.f);
}

TEST_CASE("activity: the same stream replays the same score, and evaluate is a pure function") {
  // 300 rows: 150 training rows, so batch 128 makes two minibatches and the shuffle matters.
  Fixture f(300);
  f.spec.epochs = 3;
  const auto objs = ActivityFamily(f.spec).make(3, RngFactory(1, 0));
  const Eigen::VectorXd x = vec(0, 0.001, 0.02);
  RngStream a(99), b(99);
  const auto qa = objs[1]->query(x, a), qb = objs[1]->query(x, b);
  CHECK(qa.y == qb.y);
  CHECK(qa.f == qb.f);
  RngStream c(99);
  CHECK(objs[1]->observe(x, c) == qa.y);
  // evaluate: the documented fixed stream of the subject, every time.
  RngStream fixed = RngFactory(0, 0).stream("activity.evaluate", 2);
  CHECK(objs[1]->evaluate(x) == objs[1]->observe(x, fixed));
  CHECK(objs[1]->evaluate(x) == objs[1]->evaluate(x));
}

TEST_CASE("activity family: bad settings and a missing data folder are clear errors") {
  Fixture f;
  ActivitySpec bad = f.spec;
  bad.epochs = 0;
  CHECK_THROWS_WITH(ActivityFamily(bad), Contains("objective.epochs") && Contains("got 0"));
  bad = f.spec;
  bad.data_dir = f.spec.data_dir + "-missing";
  CHECK_THROWS_WITH(ActivityFamily(bad), Contains("-missing") && Contains("missing directory"));
  bad.data_dir.clear();
  CHECK_THROWS_WITH(ActivityFamily(bad), Contains("objective.data_dir"));
}

#include <catch2/catch.hpp>

#include <cmath>

#include "datasets/activity/softmax_regression.hpp"
#include "core/rng.hpp"

using fbosim::core::RngStream;
using Model = fbosim::datasets::SoftmaxRegressionT<double>;
using FloatModel = fbosim::datasets::SoftmaxRegression;

namespace {

// The loss written out term by term in long double: (1/n) sum -log softmax(z_i)_{y_i} +
// (l2/2)||W||^2.
double naive_loss(const Model& m, const Eigen::MatrixXd& x, const Eigen::VectorXi& y, double l2) {
  long double total = 0;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    long double denom = 0;
    for (int k = 0; k < m.classes(); ++k)
      denom += std::exp(static_cast<long double>(x.row(i).dot(m.weights().col(k)) + m.bias()[k]));
    const long double zy = x.row(i).dot(m.weights().col(y[i])) + m.bias()[y[i]];
    total += std::log(denom) - zy;
  }
  return static_cast<double>(total / x.rows()) + 0.5 * l2 * m.weights().squaredNorm();
}

struct Problem {
  Eigen::MatrixXd x;
  Eigen::VectorXi y;
};

// Three well-separated 2-D clusters (centres 6 apart, unit noise): linearly separable up to
// ~3-sigma tails.
Problem clusters(int n, RngStream& rng) {
  const double c[3][2] = {{0, 6}, {6, -3}, {-6, -3}};
  Problem p{Eigen::MatrixXd(n, 2), Eigen::VectorXi(n)};
  for (int i = 0; i < n; ++i) {
    p.y[i] = i % 3;
    p.x(i, 0) = c[i % 3][0] + rng.normal();
    p.x(i, 1) = c[i % 3][1] + rng.normal();
  }
  return p;
}

}  // namespace

TEST_CASE(
    "softmax regression: loss equals the term-by-term sum, gradient equals central "
    "differences") {
  RngStream rng(11);
  const int n = 9, d = 5, k = 4;
  const Eigen::MatrixXd x = rng.normal_matrix(n, d);
  Eigen::VectorXi y(n);
  for (int i = 0; i < n; ++i) y[i] = static_cast<int>(rng.uniform_int(k));
  Model m(d, k);
  m.set_parameters(rng.normal_matrix(d, k), rng.normal_vector(k));
  const double l2 = 0.37;
  Eigen::MatrixXd gw;
  Eigen::VectorXd gb;
  const double loss = m.loss_and_gradient(x, y, l2, gw, gb);
  CHECK(loss == Approx(naive_loss(m, x, y, l2)).epsilon(1e-13));

  const double h = 1e-5;
  Eigen::MatrixXd g0, g1;
  Eigen::VectorXd b0, b1;
  for (int j = 0; j < d; ++j)
    for (int c = 0; c < k; ++c) {
      Model p = m, q = m;
      Eigen::MatrixXd w = m.weights();
      w(j, c) += h;
      p.set_parameters(w, m.bias());
      w(j, c) -= 2 * h;
      q.set_parameters(w, m.bias());
      const double fd =
          (p.loss_and_gradient(x, y, l2, g0, b0) - q.loss_and_gradient(x, y, l2, g1, b1)) / (2 * h);
      CHECK(gw(j, c) == Approx(fd).epsilon(1e-7).margin(1e-9));
    }
  for (int c = 0; c < k; ++c) {
    Model p = m, q = m;
    Eigen::VectorXd b = m.bias();
    b[c] += h;
    p.set_parameters(m.weights(), b);
    b[c] -= 2 * h;
    q.set_parameters(m.weights(), b);
    const double fd =
        (p.loss_and_gradient(x, y, l2, g0, b0) - q.loss_and_gradient(x, y, l2, g1, b1)) / (2 * h);
    CHECK(gb[c] == Approx(fd).epsilon(1e-7).margin(1e-9));
  }
}

TEST_CASE("softmax regression: logits of 1000 neither overflow nor lose the closed form") {
  // One sample, x = 1, logits (1000, 0): -log p(class 1) = 1000 + log(1 + e^-1000) = 1000 and
  // -log p(class 0) = log(1 + e^-1000) ~ 0; gradient w.r.t. b is p - e_y = (-1, 1) resp. (0, 0)
  // up to e^-1000.
  Model m(1, 2);
  m.set_parameters((Eigen::MatrixXd(1, 2) << 1000, 0).finished(), Eigen::VectorXd::Zero(2));
  const Eigen::MatrixXd x = Eigen::MatrixXd::Ones(1, 1);
  Eigen::MatrixXd gw;
  Eigen::VectorXd gb;
  CHECK(m.loss_and_gradient(x, Eigen::VectorXi::Constant(1, 1), 0.0, gw, gb) == 1000.0);
  CHECK(gb[0] == 1.0);
  CHECK(gb[1] == -1.0);
  CHECK(m.loss_and_gradient(x, Eigen::VectorXi::Constant(1, 0), 0.0, gw, gb) == 0.0);
  CHECK(gb.cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("softmax regression: a full batch is plain gradient descent, whatever the shuffle") {
  RngStream data(3);
  const Problem p = clusters(30, data);
  Model::Options o;
  o.batch_size = 1000;  // > n: the full batch
  o.l2 = 0.05;
  o.learning_rate = 0.1;
  o.epochs = 6;
  Model a(2, 3), b(2, 3), gd(2, 3);
  RngStream s1(1), s2(2);
  REQUIRE(a.fit(p.x, p.y, o, s1));
  REQUIRE(b.fit(p.x, p.y, o, s2));
  // Independent reference: W <- W - lr grad L(W) from loss_and_gradient, 6 times.
  for (int t = 0; t < o.epochs; ++t) {
    Eigen::MatrixXd gw;
    Eigen::VectorXd gb;
    gd.loss_and_gradient(p.x, p.y, o.l2, gw, gb);
    gd.set_parameters(gd.weights() - o.learning_rate * gw, gd.bias() - o.learning_rate * gb);
  }
  CHECK((a.weights() - gd.weights()).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((a.bias() - gd.bias()).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((a.weights() - b.weights()).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("softmax regression: gradient descent with L2 reaches the zero-gradient optimum") {
  // The penalised loss is convex (strongly in W, through l2) and smooth, so full-batch steps
  // below 2/L converge to its minimiser, where the whole gradient, bias part included, vanishes.
  RngStream data(5);
  const Problem p = clusters(60, data);
  Model m(2, 3);
  RngStream s(9);
  REQUIRE(m.fit(p.x, p.y, {60, 0.5, 0.05, 20000}, s));  // full batch: exact GD
  Eigen::MatrixXd gw;
  Eigen::VectorXd gb;
  m.loss_and_gradient(p.x, p.y, 0.5, gw, gb);
  CHECK(gw.norm() < 1e-8);
  CHECK(gb.norm() < 1e-8);
}

TEST_CASE("softmax regression: SGD learns separable clusters (float, minibatches)") {
  RngStream data(21);
  const Problem train = clusters(90, data), test = clusters(300, data);
  FloatModel m(2, 3);
  // Zero initialisation: every logit ties, and a tie goes to the lowest class.
  CHECK((m.predict(test.x.cast<float>()).array() == 0).all());
  RngStream s(4);
  REQUIRE(m.fit(train.x.cast<float>(), train.y, {16, 1e-4, 0.1, 30}, s));
  CHECK(m.accuracy(train.x.cast<float>(), train.y) > 0.98);
  CHECK(m.accuracy(test.x.cast<float>(), test.y) > 0.98);  // chance: 1/3
}

TEST_CASE("softmax regression: the same stream replays the same training, another differs") {
  RngStream data(8);
  const Problem p = clusters(50, data);
  const Eigen::MatrixXf x = p.x.cast<float>();
  FloatModel a(2, 3), b(2, 3), c(2, 3);
  RngStream s1(77), s2(77), s3(78);
  a.fit(x, p.y, {7, 1e-3, 0.05, 5}, s1);
  b.fit(x, p.y, {7, 1e-3, 0.05, 5}, s2);
  c.fit(x, p.y, {7, 1e-3, 0.05, 5}, s3);
  CHECK(a.weights() == b.weights());
  CHECK(a.bias() == b.bias());
  CHECK(a.weights() != c.weights());
}

TEST_CASE("softmax regression: a divergent step stops training at the last finite parameters") {
  // lr * l2 = 10: the weight decay factor 1 - lr l2 = -9 makes |W| grow ninefold per step until
  // it overflows.
  RngStream data(2);
  const Problem p = clusters(30, data);
  FloatModel m(2, 3);
  RngStream s(1);
  CHECK_FALSE(m.fit(p.x.cast<float>(), p.y, {30, 10.0, 1.0, 1000}, s));
  CHECK(m.weights().allFinite());
  CHECK(m.bias().allFinite());
  CHECK(m.weights().cwiseAbs().maxCoeff() > 1e30f);
}

TEST_CASE("softmax regression: bad shapes and options are rejected") {
  Model m(3, 2);
  RngStream s(1);
  const Eigen::MatrixXd x = Eigen::MatrixXd::Zero(4, 3);
  const Eigen::VectorXi y = Eigen::VectorXi::Zero(4);
  CHECK_THROWS_AS(m.fit(Eigen::MatrixXd::Zero(4, 2), y, {}, s), std::invalid_argument);
  CHECK_THROWS_AS(m.fit(x, Eigen::VectorXi::Constant(4, 2), {}, s), std::invalid_argument);
  CHECK_THROWS_AS(m.fit(x, y, {0, 0.0, 0.1, 1}, s), std::invalid_argument);
  CHECK_THROWS_AS(m.fit(x, y, {1, -1.0, 0.1, 1}, s), std::invalid_argument);
  CHECK_THROWS_AS(m.fit(x, y, {1, 0.0, 0.0, 1}, s), std::invalid_argument);
  CHECK_THROWS_AS(Model(3, 1), std::invalid_argument);
}

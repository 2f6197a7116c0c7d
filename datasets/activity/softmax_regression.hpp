#pragma once
// Multinomial logistic regression trained by minibatch SGD with an L2 penalty: the model each
// agent tunes in the activity-recognition experiment of DP-FTS-DE (App. B.2). Its hyperparameters
// are the batch size, the L2 weight and the learning rate.
//
// Model: p(k | x) = softmax(W^T x + b)_k, W: d x K, b: K-vector.
// Objective of one minibatch B (|B| = m):
//   L(W, b) = (1/m) sum_{i in B} -log p(y_i | x_i) + (l2 / 2) ||W||_F^2      (bias not penalised)
// Gradient:
//   dL/dW = (1/m) sum_i x_i (p_i - e_{y_i})^T + l2 W,   dL/db = (1/m) sum_i (p_i - e_{y_i}).
// The papers state neither the loss scaling nor whether the bias is penalised [choice]: the
// mean loss with (l2/2)||W||^2 is the textbook form (and tf.nn.l2_loss's).
//
// Scalar is float for the objective (the precision of the deep-learning frameworks such a model
// is usually trained with, and twice the speed of double) and double for gradient checks.
#include <Eigen/Core>

#include "core/rng.hpp"

namespace fbosim::datasets {

template <typename Scalar>
class SoftmaxRegressionT {
 public:
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  struct Options {
    int batch_size = 128;        ///< >= 1; a batch larger than the data set is the full batch
    double l2 = 0.0;             ///< >= 0
    double learning_rate = 0.1;  ///< > 0, constant
    int epochs = 1;              ///< >= 1 passes over the data
  };

  /// Zero weights and bias (the usual initialisation of a convex model [choice]; it makes the
  /// first step independent of any random draw).
  SoftmaxRegressionT(int features, int classes);

  int features() const { return static_cast<int>(w_.rows()); }
  int classes() const { return static_cast<int>(w_.cols()); }
  const Matrix& weights() const { return w_; }  ///< d x K
  const Vector& bias() const { return b_; }     ///< K
  void set_parameters(const Matrix& w, const Vector& b);

  /// L(W, b) above over all rows of x (n x d, one sample per row; labels y in 0..K-1), with its
  /// gradient (grad_w: d x K, grad_b: K), at the current parameters. The same kernel as fit().
  double loss_and_gradient(const Matrix& x, const Eigen::VectorXi& y, double l2, Matrix& grad_w,
                           Vector& grad_b) const;

  /// Minibatch SGD from the current parameters: each epoch draws a uniform permutation of the
  /// rows from rng (Fisher-Yates) and steps once per consecutive batch of batch_size rows, the
  /// last batch keeping the remainder (no row dropped). x: n x d, y: n labels in 0..K-1.
  /// Returns false when a step made a parameter non-finite (the learning rate is too large for
  /// the L2 weight and the data); training then stops and the parameters are those of the last
  /// finite step.
  bool fit(const Matrix& x, const Eigen::VectorXi& y, const Options& options, core::RngStream& rng);

  /// argmax_k (W^T x + b)_k of every row of x (n x d); the lowest k on a tie.
  Eigen::VectorXi predict(const Matrix& x) const;
  /// Fraction of rows whose prediction equals y.
  double accuracy(const Matrix& x, const Eigen::VectorXi& y) const;

 private:
  void check_data(const Matrix& x, const Eigen::VectorXi& y) const;
  /// The data term of one batch: xm: d x m (one sample per column), ym: m labels; z: K x m
  /// workspace. Sets grad_w = (1/m) xm (P - Y)^T and grad_b = (1/m) (P - Y) 1; returns the
  /// mean negative log-likelihood.
  template <typename Xm, typename Ym>
  Scalar batch_gradient(const Xm& xm, const Ym& ym, Matrix& z, Matrix& grad_w,
                        Vector& grad_b) const;

  Matrix w_;
  Vector b_;
};

using SoftmaxRegression = SoftmaxRegressionT<float>;

extern template class SoftmaxRegressionT<float>;
extern template class SoftmaxRegressionT<double>;

}  // namespace fbosim::datasets

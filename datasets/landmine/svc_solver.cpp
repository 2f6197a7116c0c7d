#include "datasets/landmine/svc_solver.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

#include "core/simd_clones.hpp"

// The 4-lane helpers below return vectors by value but are always inlined: no call, so no ABI
// to warn about in the baseline clone (GCC reports it at the end of the file, after any
// push/pop would have closed).
#pragma GCC diagnostic ignored "-Wpsabi"

namespace fbosim::datasets {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTau = 1e-12;  // libsvm's TAU: the curvature used where K is not positive
constexpr double kEps = 1e-3;   // the stopping tolerance (libsvm's and scikit-learn's default)
constexpr std::ptrdiff_t kSvcLanes = 4;

using D4 = double __attribute__((vector_size(kSvcLanes * sizeof(double))));
using I4 = std::int64_t __attribute__((vector_size(kSvcLanes * sizeof(double))));
using F4 = float __attribute__((vector_size(kSvcLanes * sizeof(float))));
constexpr I4 kIota = {0, 1, 2, 3};
constexpr std::int64_t kSignBit = std::numeric_limits<std::int64_t>::min();

// libsvm's alpha_status.
enum Status : signed char { kLower, kUpper, kFree };

[[gnu::always_inline]] inline D4 load(const double* p) {
  D4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline I4 load(const std::int64_t* p) {
  I4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline D4 load(const float* p) {  // libsvm reads Qfloat as double
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, D4);
}
[[gnu::always_inline]] inline D4 flip(const D4& g, const I4& sign) {  // sign bit flipped where set
  return reinterpret_cast<D4>(reinterpret_cast<I4>(g) ^ sign);
}

struct Extremum {
  double value;
  std::ptrdiff_t index;  // -1: none
};

// Lanes hold the best value of their elements and its last index; across lanes the ties also
// go to the last index, so the result is that of one sequential pass with `>=` (or `<=`).
template <bool kMax>
Extremum reduce(const D4& best, const I4& index, double none) {
  Extremum out{none, -1};
  for (int k = 0; k < kSvcLanes; ++k) {
    if (index[k] < 0) continue;
    const bool better = kMax ? best[k] > out.value : best[k] < out.value;
    if (out.index < 0 || better || (best[k] == out.value && index[k] > out.index))
      out = {best[k], index[k]};
  }
  return out;
}

// i of the working set: the t < n in I_up (in_up[t]) with the largest -y_t G_t, the last one
// of equals (libsvm: `if (-G[t] >= Gmax)` for y = +1, `if (G[t] >= Gmax)` for y = -1).
// neg_y[t] holds the sign bit where y_t = +1, so that G_t with it flipped is -y_t G_t.
FBOSIM_SIMD_CLONES Extremum select_i(const double* g, const std::int64_t* neg_y,
                                     const std::int64_t* in_up, std::ptrdiff_t n) {
  D4 best = -kInf + D4{};
  I4 index = -1 + I4{};
  for (std::ptrdiff_t t = 0; t < n; t += kSvcLanes) {
    const I4 at = kIota + t;
    const D4 v = flip(load(g + t), load(neg_y + t));
    const I4 take = load(in_up + t) & (at < n) & (v >= best);
    best = take ? v : best;
    index = take ? at : index;
  }
  return reduce<true>(best, index, -kInf);
}

struct SecondPick {
  double gmax2;  // max over I_low of y_t G_t
  std::ptrdiff_t j;
};

// j of the working set (WSS 3): over t in I_low with b = Gmax + y_t G_t > 0, the smallest
// -b^2 / a, a = K_ii + K_tt - 2 K_it (tau where a <= 0), the last one of equals; written as
// libsvm computes it: b = Gmax + G_t (y = +1) or Gmax - G_t (y = -1), i.e. Gmax - v_t with v_t
// = -y_t G_t; a = (QD_i + QD_t) - (2 y_i Q_it) for y_t = +1 and (QD_i + QD_t) + (2 y_i Q_it)
// for y_t = -1, i.e. minus y_t (2 y_i Q_it) (a product with +-1 is exact, as is a negation).
FBOSIM_SIMD_CLONES SecondPick select_j(const double* g, const std::int64_t* neg_y,
                                       const std::int64_t* in_low, const double* y,
                                       const double* qd, const float* q_i, double gmax, double qd_i,
                                       double two_y_i, std::ptrdiff_t n) {
  D4 gmax2 = -kInf + D4{}, best = kInf + D4{};
  I4 index = -1 + I4{};
  for (std::ptrdiff_t t = 0; t < n; t += kSvcLanes) {
    const I4 at = kIota + t;
    const I4 low = load(in_low + t) & (at < n);
    const D4 v = flip(load(g + t), load(neg_y + t));
    const D4 w = -v;
    gmax2 = (low & (w >= gmax2)) ? w : gmax2;
    const D4 grad_diff = gmax - v;
    const D4 quad = (qd_i + load(qd + t)) - load(y + t) * (two_y_i * load(q_i + t));
    const D4 obj_diff = -(grad_diff * grad_diff) / (quad > 0 ? quad : kTau + D4{});
    const I4 take = low & (grad_diff > 0) & (obj_diff <= best);
    best = take ? obj_diff : best;
    index = take ? at : index;
  }
  double m = -kInf;
  for (int k = 0; k < kSvcLanes; ++k) m = gmax2[k] > m ? gmax2[k] : m;
  return {m, reduce<false>(best, index, kInf).index};
}

// G_k += Q_ik da_i + Q_jk da_j for k < n (and up to n rounded up to the lanes: those elements
// are inactive or padding, whose gradients libsvm rebuilds before reading them).
FBOSIM_SIMD_CLONES void update_gradient(double* g, const float* q_i, const float* q_j, double da_i,
                                        double da_j, std::ptrdiff_t n) {
  for (std::ptrdiff_t t = 0; t < n; t += kSvcLanes) {
    const D4 v = load(g + t) + (load(q_i + t) * da_i + load(q_j + t) * da_j);
    std::memcpy(g + t, &v, sizeof v);
  }
}

// x_k += s Q_k for k < n rounded up (x - C Q is x + (-C) Q bit for bit).
FBOSIM_SIMD_CLONES void add_scaled(double* x, const float* q, double s, std::ptrdiff_t n) {
  for (std::ptrdiff_t t = 0; t < n; t += kSvcLanes) {
    const D4 v = load(x + t) + s * load(q + t);
    std::memcpy(x + t, &v, sizeof v);
  }
}

// libsvm 3.24's Solver for C-SVC (p = -1, Cp = Cn = C, alpha from 0) with its SVC_Q: the
// variables are permuted by shrinking exactly as there (swap_index), and every per-variable
// array with them; the Q rows are filled on first use in the current order.
class SmoSolver {
 public:
  SmoSolver(const SvcKernel& k, std::vector<int> points, const std::vector<signed char>& y,
            double c)
      : k_(k),
        l_(static_cast<std::ptrdiff_t>(points.size())),
        cap_((l_ + kSvcLanes - 1) / kSvcLanes * kSvcLanes),
        c_(c),
        point_(std::move(points)),
        y_(y),
        yd_(cap_, 1.0),
        neg_y_(cap_, 0),
        status_(l_, kLower),
        in_up_(cap_, 0),
        in_low_(cap_, 0),
        g_(cap_, -1.0),
        g_bar_(cap_, 0.0),
        alpha_(cap_, 0.0),
        qd_(cap_, 0.0),
        active_set_(l_),
        q_(std::make_unique_for_overwrite<float[]>(static_cast<std::size_t>(l_ * cap_))),
        zero_row_(cap_, 0.0f),
        row_(l_),
        filled_(l_, 0) {
    for (std::ptrdiff_t i = 0; i < l_; ++i) {
      yd_[i] = y_[i];
      neg_y_[i] = y_[i] > 0 ? kSignBit : 0;
      qd_[i] = k_.diagonal[point_[i]];
      active_set_[i] = static_cast<int>(i);
      row_[i] = &q_[static_cast<std::size_t>(i * cap_)];  // filled on first use
      set_masks(i);
    }
    active_ = l_;
  }

  // alpha (in the order of the points given) and rho.
  std::pair<std::vector<double>, double> solve();

 private:
  bool upper(std::ptrdiff_t i) const { return status_[i] == kUpper; }
  bool lower(std::ptrdiff_t i) const { return status_[i] == kLower; }
  bool free(std::ptrdiff_t i) const { return status_[i] == kFree; }
  void set_masks(std::ptrdiff_t i) {
    // I_up: y = +1 not at C, y = -1 not at 0; I_low: y = +1 not at 0, y = -1 not at C.
    in_up_[i] = (y_[i] > 0 ? !upper(i) : !lower(i)) ? -1 : 0;
    in_low_[i] = (y_[i] > 0 ? !lower(i) : !upper(i)) ? -1 : 0;
  }
  void update_alpha_status(std::ptrdiff_t i) {
    status_[i] = alpha_[i] >= c_ ? kUpper : alpha_[i] <= 0 ? kLower : kFree;
    set_masks(i);
  }
  // Row i of Q in the current order: Q_ij = y_i y_j K(point_i, point_j) in float, the sign
  // applied to the float as libsvm's (Qfloat)(y_i y_j K) rounds.
  const float* q_row(std::ptrdiff_t i) {
    float* r = row_[i];
    if (!filled_[i]) {
      const float* kr = k_.values + static_cast<std::size_t>(point_[i]) * k_.stride;
      for (std::ptrdiff_t j = 0; j < l_; ++j) {
        const float v = kr[point_[j]];
        r[j] = y_[i] == y_[j] ? v : -v;
      }
      std::fill(r + l_, r + cap_, 0.0f);  // padding: the lanes past l read zeros
      filled_[i] = 1;
    }
    return r;
  }
  void swap_index(std::ptrdiff_t i, std::ptrdiff_t j);
  int select_working_set(std::ptrdiff_t& out_i, std::ptrdiff_t& out_j);
  bool be_shrunk(std::ptrdiff_t i, double gmax1, double gmax2) const;
  void do_shrinking();
  void reconstruct_gradient();
  double calculate_rho() const;

  const SvcKernel& k_;
  std::ptrdiff_t l_, cap_;
  double c_;
  // Per variable, in the current order (swapped together).
  std::vector<int> point_;
  std::vector<signed char> y_;
  std::vector<double> yd_;
  std::vector<std::int64_t> neg_y_;
  std::vector<signed char> status_;
  std::vector<std::int64_t> in_up_, in_low_;
  std::vector<double> g_, g_bar_, alpha_, qd_;
  std::vector<int> active_set_;
  std::unique_ptr<float[]> q_;  // l rows of cap_ floats
  std::vector<float> zero_row_;
  std::vector<float*> row_;
  std::vector<char> filled_;
  std::ptrdiff_t active_ = 0;
  bool unshrink_ = false;
};

void SmoSolver::swap_index(std::ptrdiff_t i, std::ptrdiff_t j) {
  if (i == j) return;
  std::swap(point_[i], point_[j]);
  std::swap(y_[i], y_[j]);
  std::swap(yd_[i], yd_[j]);
  std::swap(neg_y_[i], neg_y_[j]);
  std::swap(status_[i], status_[j]);
  std::swap(in_up_[i], in_up_[j]);
  std::swap(in_low_[i], in_low_[j]);
  std::swap(g_[i], g_[j]);
  std::swap(g_bar_[i], g_bar_[j]);
  std::swap(alpha_[i], alpha_[j]);
  std::swap(qd_[i], qd_[j]);
  std::swap(active_set_[i], active_set_[j]);
  // libsvm's Cache::swap_index: the rows trade places, then every cached row its columns.
  std::swap(row_[i], row_[j]);
  std::swap(filled_[i], filled_[j]);
  for (std::ptrdiff_t r = 0; r < l_; ++r)
    if (filled_[r]) std::swap(row_[r][i], row_[r][j]);
}

// Returns 1 when optimal within eps (m(a) - M(a) < eps), else 0 with the working set (i, j).
int SmoSolver::select_working_set(std::ptrdiff_t& out_i, std::ptrdiff_t& out_j) {
  const Extremum first = select_i(g_.data(), neg_y_.data(), in_up_.data(), active_);
  const std::ptrdiff_t i = first.index;
  // With I_up empty Gmax = -inf, no t qualifies and Q_i is not read (libsvm: NULL).
  const float* q_i = i >= 0 ? q_row(i) : zero_row_.data();
  const SecondPick second =
      select_j(g_.data(), neg_y_.data(), in_low_.data(), yd_.data(), qd_.data(), q_i, first.value,
               i >= 0 ? qd_[i] : 0.0, i >= 0 ? 2.0 * y_[i] : 0.0, active_);
  if (first.value + second.gmax2 < kEps || second.j < 0) return 1;
  out_i = i;
  out_j = second.j;
  return 0;
}

bool SmoSolver::be_shrunk(std::ptrdiff_t i, double gmax1, double gmax2) const {
  if (upper(i)) return y_[i] == +1 ? -g_[i] > gmax1 : -g_[i] > gmax2;
  if (lower(i)) return y_[i] == +1 ? g_[i] > gmax2 : g_[i] > gmax1;
  return false;
}

void SmoSolver::do_shrinking() {
  double gmax1 = -kInf;  // max { -y_i G_i | i in I_up }
  double gmax2 = -kInf;  // max { y_i G_i | i in I_low }
  for (std::ptrdiff_t i = 0; i < active_; ++i) {
    if (y_[i] == +1) {
      if (!upper(i) && -g_[i] >= gmax1) gmax1 = -g_[i];
      if (!lower(i) && g_[i] >= gmax2) gmax2 = g_[i];
    } else {
      if (!upper(i) && -g_[i] >= gmax2) gmax2 = -g_[i];
      if (!lower(i) && g_[i] >= gmax1) gmax1 = g_[i];
    }
  }
  if (!unshrink_ && gmax1 + gmax2 <= kEps * 10) {
    unshrink_ = true;
    reconstruct_gradient();
    active_ = l_;
  }
  for (std::ptrdiff_t i = 0; i < active_; ++i)
    if (be_shrunk(i, gmax1, gmax2)) {
      --active_;
      while (active_ > i) {
        if (!be_shrunk(active_, gmax1, gmax2)) {
          swap_index(i, active_);
          break;
        }
        --active_;
      }
    }
}

// The inactive gradients from G_bar (their value with the free variables at 0) and the free
// variables, by whichever loop order libsvm picks for the sizes.
void SmoSolver::reconstruct_gradient() {
  if (active_ == l_) return;
  for (std::ptrdiff_t j = active_; j < l_; ++j) g_[j] = g_bar_[j] + -1.0;  // G_bar + p, p = -1
  std::ptrdiff_t nr_free = 0;
  for (std::ptrdiff_t j = 0; j < active_; ++j) nr_free += free(j);
  // int arithmetic as libsvm's (l is far below the overflow).
  if (nr_free * l_ > 2 * active_ * (l_ - active_)) {
    for (std::ptrdiff_t i = active_; i < l_; ++i) {
      const float* q_i = q_row(i);
      for (std::ptrdiff_t j = 0; j < active_; ++j)
        if (free(j)) g_[i] += alpha_[j] * q_i[j];
    }
  } else {
    for (std::ptrdiff_t i = 0; i < active_; ++i)
      if (free(i)) {
        const float* q_i = q_row(i);
        const double alpha_i = alpha_[i];
        for (std::ptrdiff_t j = active_; j < l_; ++j) g_[j] += alpha_i * q_i[j];
      }
  }
}

double SmoSolver::calculate_rho() const {
  // libsvm's min and max templates (on a tie they return the second argument).
  const auto min = [](double x, double y) { return x < y ? x : y; };
  const auto max = [](double x, double y) { return x > y ? x : y; };
  std::ptrdiff_t nr_free = 0;
  double ub = kInf, lb = -kInf, sum_free = 0;
  for (std::ptrdiff_t i = 0; i < active_; ++i) {
    const double yg = y_[i] * g_[i];
    if (upper(i)) {
      if (y_[i] == -1)
        ub = min(ub, yg);
      else
        lb = max(lb, yg);
    } else if (lower(i)) {
      if (y_[i] == +1)
        ub = min(ub, yg);
      else
        lb = max(lb, yg);
    } else {
      ++nr_free;
      sum_free += yg;
    }
  }
  return nr_free > 0 ? sum_free / static_cast<double>(nr_free) : (ub + lb) / 2;
}

std::pair<std::vector<double>, double> SmoSolver::solve() {
  // G = p = -1 and G_bar = 0 at alpha = 0 (no variable starts off its lower bound).
  const std::ptrdiff_t max_iter =
      std::max<std::ptrdiff_t>(10000000, l_ > INT_MAX / 100 ? INT_MAX : 100 * l_);
  std::ptrdiff_t iter = 0, counter = std::min<std::ptrdiff_t>(l_, 1000) + 1;
  while (iter < max_iter) {
    if (--counter == 0) {
      counter = std::min<std::ptrdiff_t>(l_, 1000);
      do_shrinking();
    }
    std::ptrdiff_t i = 0, j = 0;
    if (select_working_set(i, j) != 0) {
      reconstruct_gradient();
      active_ = l_;
      if (select_working_set(i, j) != 0) break;
      counter = 1;  // shrink at the next iteration
    }
    ++iter;
    // The two-variable subproblem, clipped to the box [0, C]^2 along y_i a_i + y_j a_j.
    const float* q_i = q_row(i);
    const float* q_j = q_row(j);
    const double c_i = c_, c_j = c_;
    const double old_alpha_i = alpha_[i], old_alpha_j = alpha_[j];
    double& a_i = alpha_[i];
    double& a_j = alpha_[j];
    if (y_[i] != y_[j]) {
      double quad_coef = qd_[i] + qd_[j] + 2 * q_i[j];  // 2 * Qfloat: a float, exact
      if (quad_coef <= 0) quad_coef = kTau;
      const double delta = (-g_[i] - g_[j]) / quad_coef;
      const double diff = a_i - a_j;
      a_i += delta;
      a_j += delta;
      if (diff > 0) {
        if (a_j < 0) {
          a_j = 0;
          a_i = diff;
        }
      } else if (a_i < 0) {
        a_i = 0;
        a_j = -diff;
      }
      if (diff > c_i - c_j) {
        if (a_i > c_i) {
          a_i = c_i;
          a_j = c_i - diff;
        }
      } else if (a_j > c_j) {
        a_j = c_j;
        a_i = c_j + diff;
      }
    } else {
      double quad_coef = qd_[i] + qd_[j] - 2 * q_i[j];
      if (quad_coef <= 0) quad_coef = kTau;
      const double delta = (g_[i] - g_[j]) / quad_coef;
      const double sum = a_i + a_j;
      a_i -= delta;
      a_j += delta;
      if (sum > c_i) {
        if (a_i > c_i) {
          a_i = c_i;
          a_j = sum - c_i;
        }
      } else if (a_j < 0) {
        a_j = 0;
        a_i = sum;
      }
      if (sum > c_j) {
        if (a_j > c_j) {
          a_j = c_j;
          a_i = sum - c_j;
        }
      } else if (a_i < 0) {
        a_i = 0;
        a_j = sum;
      }
    }
    const double delta_alpha_i = a_i - old_alpha_i, delta_alpha_j = a_j - old_alpha_j;
    update_gradient(g_.data(), q_i, q_j, delta_alpha_i, delta_alpha_j, active_);
    // G_bar follows the variables that reach or leave C.
    const bool ui = upper(i), uj = upper(j);
    update_alpha_status(i);
    update_alpha_status(j);
    if (ui != upper(i)) add_scaled(g_bar_.data(), q_row(i), ui ? -c_i : c_i, l_);
    if (uj != upper(j)) add_scaled(g_bar_.data(), q_row(j), uj ? -c_j : c_j, l_);
  }
  if (iter >= max_iter && active_ < l_) {  // libsvm warns on stderr; unreachable in practice
    reconstruct_gradient();
    active_ = l_;
  }
  const double rho = calculate_rho();
  std::vector<double> alpha(static_cast<std::size_t>(l_));
  for (std::ptrdiff_t i = 0; i < l_; ++i) alpha[active_set_[i]] = alpha_[i];
  return {std::move(alpha), rho};
}

}  // namespace

SvcModel train_svc(const SvcKernel& kernel, const std::vector<int>& points,
                   const std::vector<int>& labels, double c) {
  if (points.size() != labels.size())
    throw std::invalid_argument("train_svc: points and labels differ in size");
  if (!(c > 0)) throw std::invalid_argument("train_svc: C must be > 0");
  // svm_group_classes: the +1 rows, then the -1 rows, each in the given order.
  std::vector<int> grouped;
  std::vector<signed char> y;
  for (int label : {+1, -1})
    for (std::size_t r = 0; r < points.size(); ++r) {
      if (labels[r] != 1 && labels[r] != -1)
        throw std::invalid_argument("train_svc: labels must be +1 or -1");
      if (labels[r] != label) continue;
      grouped.push_back(points[r]);
      y.push_back(static_cast<signed char>(label));
    }
  const std::size_t positives =
      static_cast<std::size_t>(std::count(labels.begin(), labels.end(), 1));
  if (positives == 0 || positives == points.size())
    throw std::invalid_argument("train_svc: both classes need a point");
  SmoSolver solver(kernel, grouped, y, c);
  auto [alpha, rho] = solver.solve();
  // svm_train: alpha_i y_i, the support vectors those with |alpha_i| > 0 in the grouped order.
  SvcModel model;
  model.rho = rho;
  for (std::size_t i = 0; i < grouped.size(); ++i) {
    const double coef = alpha[i] * y[i];
    if (std::fabs(coef) > 0) {
      model.sv.push_back(grouped[i]);
      model.coef.push_back(coef);
    }
  }
  return model;
}

}  // namespace fbosim::datasets

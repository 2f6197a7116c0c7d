#include "algorithms/privacy/pld_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "algorithms/privacy/dp_event.hpp"
#include "algorithms/privacy/gaussian_tail.hpp"
#include "algorithms/privacy/log_space.hpp"

namespace fbosim::privacy {

namespace {

// The composed loss spans about mean +- kSpreadSigmas standard deviations above the 1e-15 cut.
constexpr double kSpreadSigmas = 10;

// log((e^l - (1 - q)) / q) for e^l > 1 - q, without cancellation near the boundary.
double log_excess(double l, double q) {
  if (q == 1) return l;  // (also avoids 0 * e^{-l} = NaN where e^{-l} overflows)
  return l + std::log1p(-(1 - q) * std::exp(-l)) - std::log(q);
}

// log P(L <= l), log P(L > l), log Q(L <= l), log Q(L > l) of one relation at one loss l. In log
// space: Q of a cell far in the upper tail (e^{-l} P) is below the smallest double, yet e^l Q is
// what the discretisations need.
struct Cdfs {
  double p_cdf, p_sf, q_cdf, q_sf;
};

// log of the mass in (a, b] from whichever tail is small there (keeps its relative accuracy).
double log_mass(double a_cdf, double a_sf, double b_cdf, double b_sf) {
  const bool lower_tail = b_cdf <= std::log(0.5);
  const double big = lower_tail ? b_cdf : a_sf, small = lower_tail ? a_cdf : b_sf;
  if (!(small < big)) return -kInf;
  return big + std::log(-std::expm1(small - big));
}
double log_p_mass(const Cdfs& a, const Cdfs& b) {
  return log_mass(a.p_cdf, a.p_sf, b.p_cdf, b.p_sf);
}
double log_q_mass(const Cdfs& a, const Cdfs& b) {
  return log_mass(a.q_cdf, a.q_sf, b.q_cdf, b.q_sf);
}
double p_mass(const Cdfs& a, const Cdfs& b) { return std::exp(log_p_mass(a, b)); }

// The loss law of one relation; L is increasing in x (remove) or decreasing in x (add).
class LossLaw {
 public:
  LossLaw(double q, double z, bool add) : q_(q), z_(z), add_(add) {
    if (q < 1) (add ? natural_hi_ : natural_lo_) = add ? -std::log1p(-q) : std::log1p(-q);
  }

  Cdfs at(double l) const {
    if (l <= natural_lo_) return {-kInf, 0, -kInf, 0};
    if (l >= natural_hi_) return {0, -kInf, 0, -kInf};
    const double x = z_ * z_ * log_excess(add_ ? -l : l, q_) + 0.5;
    const double c0 = log_normal_cdf(x / z_), s0 = log_normal_cdf(-x / z_);
    const double c1 = log_normal_cdf((x - 1) / z_), s1 = log_normal_cdf((1 - x) / z_);
    const double w0 = std::log1p(-q_), w1 = std::log(q_);  // mixture weights (w0 = -inf at q = 1)
    const double mix_c = log_add(w0 + c0, w1 + c1), mix_s = log_add(w0 + s0, w1 + s1);
    if (!add_) return {mix_c, mix_s, c0, s0};  // x ~ P = mixture, Q = N(0, z^2); L <= l: x <= .
    return {s0, c0, mix_s, mix_c};             // L <= l: x >= .; P = N(0, z^2), Q = mixture
  }

  // [lo, hi] outside which P holds at most `tail` on each side (tight: found by bisection).
  std::pair<double, double> support(double tail) const {
    const auto edge = [&](bool low) {
      double out = low ? -1 : 1;
      const auto outside = [&](double l) {
        return (low ? at(l).p_cdf : at(l).p_sf) <= std::log(tail);
      };
      while (!outside(out)) out *= 2;
      if (low) out = std::max(out, natural_lo_);
      if (!low) out = std::min(out, natural_hi_);
      double in = out;  // a point inside: step towards the other end until P there exceeds tail
      double step = low ? 1 : -1;
      while (outside(in)) {
        in += step;
        step *= 2;
      }
      for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (in + out);
        (outside(mid) ? out : in) = mid;
      }
      return out;
    };
    return {edge(true), edge(false)};
  }

 private:
  double q_, z_;
  bool add_;
  double natural_lo_ = -kInf, natural_hi_ = kInf;
};

// Spread of one step's loss: the support width and the variance under P (for the grid width).
struct Spread {
  double width, variance;
};

Spread spread(double q, double z, bool add) {
  const LossLaw law(q, z, add);
  const auto [lo, hi] = law.support(PldAccountant::kStepTailMass);
  constexpr int kCells = 512;
  const double w = (hi - lo) / kCells;
  double m1 = 0, m2 = 0;
  Cdfs prev = law.at(lo);
  for (int i = 1; i <= kCells; ++i) {
    const Cdfs cur = law.at(lo + i * w);
    const double mid = lo + (i - 0.5) * w, pm = p_mass(prev, cur);
    m1 += pm * mid;
    m2 += pm * mid * mid;
    prev = cur;
  }
  return {hi - lo, std::max(0.0, m2 - m1 * m1) + w * w / 12};
}

PldPmf upper_single(const LossLaw& law, double h, std::int64_t k_lo, std::size_t n) {
  // Connect the dots (Doroshenko et al. 2022): a loss l in [a, a + h] splits into the two ends
  // with weights preserving mass and E[e^{-L}]: the upper end gets (e^{-a} - e^{-l}) /
  // (e^{-a} - e^{-a-h}); over a cell that is (P_c - e^a Q_c) / (1 - e^{-h}) since e^{-L} dP = dQ.
  PldPmf d;
  d.offset = k_lo;
  d.p.assign(n, 0.0);
  const double denom = -std::expm1(-h);
  Cdfs prev = law.at(static_cast<double>(k_lo) * h);
  d.p[0] = std::exp(prev.p_cdf);  // the lower tail, rounded up onto the lowest point
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double a = static_cast<double>(k_lo + static_cast<std::int64_t>(i)) * h;
    const Cdfs cur = law.at(a + h);
    const double pc = p_mass(prev, cur), scaled_q = std::exp(a + log_q_mass(prev, cur));
    const double up = std::clamp((pc - scaled_q) / denom, 0.0, pc);
    d.p[i + 1] += up;
    d.p[i] += pc - up;
    prev = cur;
  }
  d.inf_mass = std::exp(prev.p_sf);  // the upper tail, at +infinity
  return d;
}

PldPmf lower_single(const LossLaw& law, double h, std::int64_t k_lo, std::size_t n) {
  // Merge the outputs of each cell ((k - 1/2) h, (k + 1/2) h] (a post-processing): one atom with
  // mass P_k and loss m_k = log(P_k / Q_k) inside the cell. Tails outside are dropped.
  std::vector<double> pm(n), loss(n);
  Cdfs prev = law.at((static_cast<double>(k_lo) - 0.5) * h);
  for (std::size_t i = 0; i < n; ++i) {
    const Cdfs cur = law.at((static_cast<double>(k_lo + static_cast<std::int64_t>(i)) + 0.5) * h);
    const double lp = log_p_mass(prev, cur);
    pm[i] = std::exp(lp);
    loss[i] = lp - log_q_mass(prev, cur);  // +inf where Q of the cell vanishes
    prev = cur;
  }
  // Align on the grid, upwards: an atom above kh absorbs the sliver of the mass at (k-1) h, one
  // below kh the sliver of the next atoms (losses above kh), that brings its loss to exactly kh.
  // Merged masses p and s = e^{kh} Q (finite at any loss): the merged loss is kh when s = p.
  PldPmf d;
  d.offset = k_lo;
  d.p.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double p = pm[i];
    if (!(p > 0)) continue;
    const double l = static_cast<double>(k_lo + static_cast<std::int64_t>(i)) * h;
    double s = p * std::exp(l - loss[i]);
    if (s <= p) {
      // Loss above kh: merge in the sliver of the mass already at (k-1) h (each unit adds e^h
      // to s) that brings it to kh; what that mass cannot cover is rounded down (both only
      // lower the curve).
      if (i > 0) {
        const double take = std::min((p - s) / std::expm1(h), d.p[i - 1]);
        d.p[i - 1] -= take;
        p += take;
      }
      d.p[i] += p;
      continue;
    }
    bool aligned = false;
    for (std::size_t j = i + 1; j < n && !aligned; ++j) {
      if (!(pm[j] > 0)) continue;
      const double r = std::exp(l - loss[j]);  // what a unit of atom j adds to s
      if (!(r < 1)) continue;                  // its loss is not above kh (round-off only)
      const double beta = (s - p) / (1 - r);
      if (beta >= pm[j]) {
        p += pm[j];
        s += pm[j] * r;
        pm[j] = 0;
        aligned = s <= p;
      } else {
        p += beta;
        s += beta * r;
        pm[j] -= beta;
        aligned = true;  // loss exactly kh (up to round-off)
      }
    }
    if (aligned)
      d.p[i] += p;
    else if (i > 0)
      d.p[i - 1] += p;  // nothing left above: round down (its loss exceeds (k - 1/2) h)
  }
  return d;
}

}  // namespace

double PldAccountant::target_points(double steps) {
  return std::clamp(32768 * std::sqrt(steps / 1000), 32768.0, 2097152.0);
}

PldAccountant::PldAccountant(double grid_width) : grid_width_(grid_width) {
  if (!(grid_width >= 0 && std::isfinite(grid_width)))
    throw std::invalid_argument(fmt::format("grid width must be >= 0, got {}", grid_width));
}

PldPmf PldAccountant::single(double q, double z, double h, bool add, Bound bound) {
  check_poisson_gaussian(q, z);
  if (!(h > 0 && std::isfinite(h)))
    throw std::invalid_argument(fmt::format("grid width must be > 0, got {}", h));
  const LossLaw law(q, z, add);
  const auto [lo, hi] = law.support(kStepTailMass);
  const auto k_lo = static_cast<std::int64_t>(std::floor(lo / h));
  const auto k_hi = static_cast<std::int64_t>(std::ceil(hi / h));
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(k_hi - k_lo + 1, 2));
  if (n > kPldMaxPoints)
    throw std::length_error(fmt::format(
        "pld: one step (q = {}, z = {}) needs {} grid points of width {}, more than the limit {}",
        q, z, n, h, kPldMaxPoints));
  return bound == Bound::upper ? upper_single(law, h, k_lo, n) : lower_single(law, h, k_lo, n);
}

double PldAccountant::grid_width() const {
  if (grid_width_ > 0) return grid_width_;
  if (groups_.empty()) return kMinGridWidth;
  // Width W of the composed loss: the sum of the step supports while few steps compose, else
  // about 2 kSpreadSigmas standard deviations of the composed loss (its variance adds up).
  // Per group the larger of the two relations' spreads, so one width serves both.
  double total_width = 0, total_variance = 0, max_width = 0, min_sd = kInf;
  for (const Group& g : groups_) {
    double w = 0, v = 0;
    for (bool add : {false, true}) {
      const Spread s = spread(g.q, g.z, add);
      w = std::max(w, s.width);
      v = std::max(v, s.variance);
    }
    total_width += static_cast<double>(g.count) * w;
    total_variance += static_cast<double>(g.count) * v;
    max_width = std::max(max_width, w);
    min_sd = std::min(min_sd, std::sqrt(v));
  }
  const double width =
      std::min(total_width, 2 * kSpreadSigmas * std::sqrt(total_variance) + max_width);
  // At least 16 points per standard deviation of one step (connect the dots widens each step's
  // variance by at most h^2/4), unless that would exceed the largest grid.
  const double h = std::max(kMinGridWidth, width / target_points(static_cast<double>(steps())));
  return std::max(std::min(h, min_sd / 16), width / 2097152);
}

bool PldAccountant::supports_mechanism(const DpEvent& event) const {
  return as_poisson_gaussian(event).has_value();
}

void PldAccountant::compose_mechanism(const DpEvent& event, long long count) {
  const auto [q, z] = *as_poisson_gaussian(event);
  for (Group& g : groups_)
    if (g.q == q && g.z == z) {
      g.count += count;
      return;
    }
  groups_.push_back({q, z, count});
}

double PldAccountant::relation_epsilon(double delta, double h, bool add, Bound bound) const {
  PldPmf total;
  bool first = true;
  for (const Group& g : groups_) {
    PldPmf part = self_compose(single(g.q, g.z, h, add, bound), g.count, bound);
    total = first ? std::move(part) : convolve(total, part, bound);
    first = false;
  }
  const double eps = epsilon_for_delta(total, h, delta);
  if (!std::isfinite(eps))
    throw std::domain_error(fmt::format(
        "pld cannot answer: delta = {} is not above the mass its discretisation puts at "
        "infinite loss ({:.3g}: the tails it cuts); give a larger delta or use --accountant rdp",
        delta, total.inf_mass));
  return eps;
}

double PldAccountant::bound_epsilon(double delta, double h, Bound bound) const {
  // A noise multiplier so small that one step's loss spans more than a double (z^2 underflows):
  // no grid can hold it.
  if (!std::isfinite(h))
    throw std::domain_error(
        "pld cannot answer: the privacy loss of one step is too wide for any grid (the noise "
        "multiplier is too small); there is no finite epsilon to report");
  // The two neighbouring relations are independent computations: one on another thread.
  // Deterministic (each is the same sequential computation whichever thread runs it).
  auto add =
      std::async(std::launch::async, [&] { return relation_epsilon(delta, h, true, bound); });
  const double remove = relation_epsilon(delta, h, false, bound);
  return std::max(remove, add.get());
}

EpsilonBounds PldAccountant::epsilon_bounds(double delta) const {
  require_private();
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  if (steps() == 0) return {0.0, 0.0};
  const double h = grid_width();
  return {bound_epsilon(delta, h, Bound::lower), bound_epsilon(delta, h, Bound::upper)};
}

EpsilonResult PldAccountant::private_epsilon(double delta) const {
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  if (steps() == 0) return {0.0, 0.0};
  return {bound_epsilon(delta, grid_width(), Bound::upper), 0.0};
}

AccountantEntry pld_accountant_entry() {
  return {"pld", "privacy-loss distribution: the tightest upper bound",
          [] { return std::make_unique<PldAccountant>(); }, true};
}

}  // namespace fbosim::privacy

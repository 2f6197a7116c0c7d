#include "algorithms/gp/marginal_likelihood.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>

#include <Eigen/Core>

#include "core/fast_exp.hpp"
#include "core/simd_clones.hpp"

namespace fbosim::gp {

namespace {

using Eigen::Index;

// The kernels below work on column-major N x N arrays, N = n rounded up to a multiple of 4,
// in 4 x 4 tiles: K is padded with the identity (zeros off its diagonal), so its factor and
// inverse are padded the same way and every row loop runs on whole 4-lane vectors. A tile is
// held as 4 column vectors (V4, 4 rows each; the baseline clone runs each as two SSE2 halves)
// and every element sees the same operations in the same order, one lane each: the AVX2 and
// baseline clones give the same bits. GCC vector arguments go by reference (-Wpsabi).
constexpr Index kTile = 4;
using V4 = core::ExpVec;

Index padded_size(Index n) { return (n + kTile - 1) / kTile * kTile; }

[[gnu::always_inline]] inline void load(V4& v, const double* p) { std::memcpy(&v, p, sizeof v); }
[[gnu::always_inline]] inline void store(double* p, const V4& v) { std::memcpy(p, &v, sizeof v); }

// Sum of the lanes in a fixed order.
[[gnu::always_inline]] inline double lane_sum(const V4& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// A tile of R rows (R / 4 vectors) by 4 columns, column c in acc[.][c].
template <int R>
using Tile = V4[R / kTile][kTile];

template <int R>
[[gnu::always_inline]] inline void load_tile(Tile<R>& acc, const double* p, Index ld) {
#pragma GCC unroll 4
  for (int c = 0; c < kTile; ++c)
#pragma GCC unroll 4
    for (int r = 0; r < R / kTile; ++r) load(acc[r][c], p + c * ld + r * kTile);
}

template <int R>
[[gnu::always_inline]] inline void store_tile(double* p, const Tile<R>& acc, Index ld) {
#pragma GCC unroll 4
  for (int c = 0; c < kTile; ++c)
#pragma GCC unroll 4
    for (int r = 0; r < R / kTile; ++r) store(p + c * ld + r * kTile, acc[r][c]);
}

// Runs f.operator()<R>(i) over the rows [i0, N) in tiles of R = 12 rows (three vectors by four
// columns: 12 accumulators, the most that leave AVX2 registers for the operands), the last 4 or 8.
// f must be always_inline: a lambda compiled on its own is not cloned (baseline code only).
template <class F>
[[gnu::always_inline]] inline void for_row_tiles(Index i0, Index N, F&& f) {
  Index i = i0;
  for (; i + 3 * kTile <= N; i += 3 * kTile) f.template operator()<3 * kTile>(i);
  if (i + 2 * kTile <= N)
    f.template operator()<2 * kTile>(i);
  else if (i < N)
    f.template operator()<kTile>(i);
}

// acc(x, c) -= a(x, k) b(c, k) for k in [k0, k1), one k after the other, for the first V vectors
// of the tile: a and b point at the first row of R and 4 rows of column-major arrays with leading
// dimension ld. The inner loop of the three n^3 / 6 kernels: 4 broadcasts and 2 R arithmetic
// instructions per 4 R multiply-adds (no FMA: the two clones must round alike). The a vectors are
// read from memory by each multiply (the empty asm keeps GCC from holding them in registers,
// where with 12 accumulators it spills one): fewer instructions than loading them once.
template <int R, int V = R / kTile>
[[gnu::always_inline]] inline void subtract_products(Tile<R>& acc, const double* a, const double* b,
                                                     Index k0, Index k1, Index ld) {
#pragma GCC unroll 4
  for (Index k = k0; k < k1; ++k) {
    const double* const ak = a + k * ld;
    const double* const bk = b + k * ld;
#pragma GCC unroll 4
    for (int c = 0; c < kTile; ++c) {
      const double bc = bk[c];
#pragma GCC unroll 4
      for (int r = 0; r < V; ++r) {
        V4 av;
        load(av, ak + r * kTile);
        acc[r][c] -= av * bc;
      }
      asm volatile("" ::: "memory");
    }
  }
}

// The same when a is upper triangular from row k0 (a(x, k) = 0 for k < x, counted from k0):
// vector r of the tile starts at k0 + 4 r, skipping products that are exact zeros.
template <int R>
[[gnu::always_inline]] inline void subtract_upper_products(Tile<R>& acc, const double* a,
                                                           const double* b, Index k0, Index k1,
                                                           Index ld) {
  subtract_products<R, 1>(acc, a, b, k0, std::min(k1, k0 + kTile), ld);
  if constexpr (R == 2 * kTile) subtract_products<R, 2>(acc, a, b, k0 + kTile, k1, ld);
  if constexpr (R == 3 * kTile) {
    subtract_products<R, 2>(acc, a, b, k0 + kTile, std::min(k1, k0 + 2 * kTile), ld);
    subtract_products<R, 3>(acc, a, b, k0 + 2 * kTile, k1, ld);
  }
}

// acc = acc l^-T for the lower-triangular 4 x 4 l at ljj (leading dimension ld): column c less
// columns b < c times l(c, b), then divided by l(c, c); continues the k order of
// subtract_products with k = j + b.
template <int R>
[[gnu::always_inline]] inline void solve_tile(Tile<R>& acc, const double* ljj, Index ld) {
#pragma GCC unroll 4
  for (int c = 0; c < kTile; ++c) {
#pragma GCC unroll 4
    for (int b = 0; b < c; ++b) {
      const double l = ljj[b * ld + c];
#pragma GCC unroll 4
      for (int r = 0; r < R / kTile; ++r) acc[r][c] -= acc[r][b] * l;
    }
    const double d = ljj[c * ld + c];
#pragma GCC unroll 4
    for (int r = 0; r < R / kTile; ++r) acc[r][c] /= d;
  }
}

// Rows [i, i + 4) of a column of Kf = signal_var exp(-D / (2 l^2)) (the kernel of R&W eq. 5.8
// without noise), M = Kf .* D and L = Kf, given that column of D in dv and scale D in e.
[[gnu::always_inline]] inline void kernel_rows(const V4& dv, V4& e, double signal_var, double* kf,
                                               double* m, double* l) {
  core::exp_nonpositive_lanes(e);  // D >= 0
  const V4 k = signal_var * e;
  store(kf, k);
  store(m, k * dv);
  store(l, k);
}

// Kf, M = Kf .* D and L = Kf + noise_var I in the lower 4 x 4 tiles of N x N arrays (diagonal
// tiles whole), zero in the padding but for L's diagonal, 1 there.
FBOSIM_SIMD_CLONES void kernel_tiles(const double* D, Index n, const SeHyper& h, Index N,
                                     double* Kf, double* M, double* L) {
  const double scale = -0.5 / (h.lengthscale * h.lengthscale);
  const Index whole = n / kTile * kTile;  // rows of D read as whole vectors
  for (Index j = 0; j < N; ++j) {
    double* const kf = Kf + j * N;
    double* const m = M + j * N;
    double* const l = L + j * N;
    if (j >= n) {
      for (Index i = j / kTile * kTile; i < N; i += kTile)
        store(kf + i, V4{}), store(m + i, V4{}), store(l + i, V4{});
      l[j] = 1.0;
      continue;
    }
    const double* const d = D + j * n;
    for (Index i = j / kTile * kTile; i < whole; i += kTile) {
      V4 dv, e;
      load(dv, d + i);
      e = scale * dv;
      kernel_rows(dv, e, h.signal_var, kf + i, m + i, l + i);
    }
    if (whole < N) {  // the last rows, padded with D = 0 and exponent -infinity (Kf = 0)
      V4 dv{}, e = -__builtin_inf() + V4{};
#pragma GCC unroll 4
      for (int x = 0; x < kTile; ++x)
        if (whole + x < n) dv[x] = d[whole + x], e[x] = scale * d[whole + x];
      kernel_rows(dv, e, h.signal_var, kf + whole, m + whole, l + whole);
    }
    l[j] += h.noise_var;
  }
}

// Factors the diagonal tile of the panel at column j (in acc, the earlier columns subtracted) in
// registers: column c less the columns b < c times L(c, b), then divided by the pivot
// sqrt(L(c, c)). Above the diagonal the lanes hold whatever comes out (nothing reads them).
// False when a pivot is not positive or NaN.
[[gnu::always_inline]] inline bool factor_diagonal_tile(Tile<kTile>& acc) {
  V4* const x = acc[0];
#pragma GCC unroll 4
  for (int c = 0; c < kTile; ++c) {
#pragma GCC unroll 4
    for (int b = 0; b < c; ++b) x[c] -= x[b] * x[b][c];
    if (!(x[c][c] > 0.0)) return false;
    const double pivot = std::sqrt(x[c][c]);
    x[c] /= pivot;
    x[c][c] = pivot;
  }
  return true;
}

// Rows [i, i + R) of the columns [j, j + 4) of the factor: less the earlier columns, then solved
// against the diagonal tile.
template <int R>
[[gnu::always_inline]] inline void cholesky_tile(double* L, Index i, Index j, Index N) {
  Tile<R> acc;
  load_tile<R>(acc, L + j * N + i, N);
  subtract_products<R>(acc, L + i, L + j, 0, j, N);
  solve_tile<R>(acc, L + j * N + j, N);
  store_tile<R>(L + j * N + i, acc, N);
}

// Cholesky factor of the lower tiles of L (N x N), in place, left-looking by panels of 4
// columns: the panel less the earlier columns, its diagonal tile factored, the tiles below
// solved against it. False when a pivot is not positive (K not positive definite) or NaN.
FBOSIM_SIMD_CLONES bool cholesky_lower(double* L, Index N) {
  for (Index j = 0; j < N; j += kTile) {
    Tile<kTile> diag;
    load_tile<kTile>(diag, L + j * N + j, N);
    subtract_products<kTile>(diag, L + j, L + j, 0, j, N);
    if (!factor_diagonal_tile(diag)) return false;
    store_tile<kTile>(L + j * N + j, diag, N);
    for_row_tiles(
        j + kTile,
        N, [&]<int R>(Index i) __attribute__((always_inline)) { cholesky_tile<R>(L, i, j, N); });
  }
  return true;
}

// The tile of the identity at rows [0, R), columns [i, i + 4).
template <int R>
[[gnu::always_inline]] inline void identity_tile(Tile<R>& acc, Index i) {
  const V4 lane = {0.0, 1.0, 2.0, 3.0};
#pragma GCC unroll 4
  for (int c = 0; c < kTile; ++c)
#pragma GCC unroll 4
    for (int r = 0; r < R / kTile; ++r)
      acc[r][c] = lane == static_cast<double>(i + c - r * kTile) ? 1.0 + V4{} : V4{};
}

// Rows [p, p + R) of T = (L^-1)^T, i.e. columns of R = L^-1 by forward substitution, by tiles
// of 4 columns of T (rows i of R): the identity less R(i, k) ... as T(., k) L(i, k) for k in
// [p, i), then solved against L's diagonal tile at i. Below T's diagonal this gives zeros.
template <int R>
[[gnu::always_inline]] inline void inverse_panel(const double* L, double* T, Index p, Index N) {
  for (Index i = p; i < N; i += kTile) {
    Tile<R> acc = {};
    if (i < p + R) identity_tile<R>(acc, i - p);
    subtract_upper_products<R>(acc, T + p, L + i, p, i, N);
    solve_tile<R>(acc, L + i * N + i, N);
    store_tile<R>(T + i * N + p, acc, N);
  }
}

// T = (L^-1)^T (upper tiles; the diagonal tiles zero below the diagonal), by panels of 12 rows.
FBOSIM_SIMD_CLONES void transposed_inverse(const double* L, double* T, Index N) {
  for_row_tiles(
      0, N, [&]<int R>(Index p) __attribute__((always_inline)) { inverse_panel<R>(L, T, p, N); });
}

// Per-lane partial sums of R&W eq. 5.9: W Kf .* D and W Kf over the diagonal tiles and (once)
// over the tiles below, and tr W.
struct PartialSums {
  V4 m_diag{}, f_diag{}, m_below{}, f_below{};
  double trace = 0.0;
};

// Adds a tile of W = alpha alpha^T - K^-1 at rows [i, i + R), columns [j, j + 4) to s, given
// acc = -K^-1 there; `diag` when its first 4 rows are the diagonal tile.
template <int R>
[[gnu::always_inline]] inline void add_tile(PartialSums& s, const Tile<R>& acc, const double* alpha,
                                            const double* Kf, const double* M, Index i, Index j,
                                            Index n, Index N, bool diag) {
#pragma GCC unroll 4
  for (int r = 0; r < R / kTile; ++r) {
    V4 ai, kf, m;
    load(ai, alpha + i + r * kTile);
    const bool on_diag = diag && r == 0;
#pragma GCC unroll 4
    for (int c = 0; c < kTile; ++c) {
      const V4 w = ai * alpha[j + c] + acc[r][c];
      load(kf, Kf + (j + c) * N + i + r * kTile);
      load(m, M + (j + c) * N + i + r * kTile);
      if (on_diag) {
        s.f_diag += w * kf;
        s.m_diag += w * m;
        if (j + c < n) s.trace += w[c];
      } else {
        s.f_below += w * kf;
        s.m_below += w * m;
      }
    }
  }
}

// Rows [i, i + R) of columns [j, j + 4) of -K^-1 = -T T^T (T(x, k) = 0 for k < x), added to s.
template <int R>
[[gnu::always_inline]] inline void inverse_tile_sums(PartialSums& s, const double* T,
                                                     const double* alpha, const double* Kf,
                                                     const double* M, Index i, Index j, Index n,
                                                     Index N) {
  Tile<R> acc = {};
  subtract_upper_products<R>(acc, T + i, T + j, i, N, N);
  add_tile<R>(s, acc, alpha, Kf, M, i, j, n, N, i == j);
}

// The sums of R&W eq. 5.9 with W = alpha alpha^T - K^-1 over the symmetric matrices: returns
// (sum W_ij Kf_ij D_ij, sum W_ij Kf_ij, tr W). K^-1 is formed a tile at a time (lower tiles,
// diagonal tiles whole) and never stored; the tiles below the diagonal count twice. The
// padding adds nothing (Kf, M and alpha are zero there and the trace skips it).
FBOSIM_SIMD_CLONES Eigen::Vector3d gradient_sums(const double* T, const double* Kf, const double* M,
                                                 const double* alpha, Index n, Index N) {
  PartialSums s;
  for (Index j = 0; j < N; j += kTile) {
    for_row_tiles(
        j, N, [&]<int R>(Index i) __attribute__((always_inline)) {
          inverse_tile_sums<R>(s, T, alpha, Kf, M, i, j, n, N);
        });
  }
  return {lane_sum(s.m_diag) + 2.0 * lane_sum(s.m_below),
          lane_sum(s.f_diag) + 2.0 * lane_sum(s.f_below), s.trace};
}

// alpha = K^-1 y = L^-T L^-1 y, both solves by tiles of 4 unknowns; u holds y padded with zeros
// on entry and L^-1 y on exit.
FBOSIM_SIMD_CLONES void solve_alpha(const double* L, double* u, double* alpha, Index N) {
  for (Index i = 0; i < N; i += kTile) {  // L u = y: four unknowns, then the rows below less them
    for (int a = 0; a < kTile; ++a) {
      double x = u[i + a];
      for (int b = 0; b < a; ++b) x -= L[(i + b) * N + i + a] * u[i + b];
      u[i + a] = x / L[(i + a) * N + i + a];
    }
    for (Index r = i + kTile; r < N; r += kTile) {
      V4 v;
      load(v, u + r);
#pragma GCC unroll 4
      for (int c = 0; c < kTile; ++c) {
        V4 l;
        load(l, L + (i + c) * N + r);
        v -= l * u[i + c];
      }
      store(u + r, v);
    }
  }
  for (Index i = N - kTile; i >= 0; i -= kTile) {  // L^T alpha = u: rows i less rows k >= i + 4
    V4 acc[kTile] = {};
    for (Index k = i + kTile; k < N; k += kTile) {
      V4 ak;
      load(ak, alpha + k);
#pragma GCC unroll 4
      for (int a = 0; a < kTile; ++a) {
        V4 l;
        load(l, L + (i + a) * N + k);
        acc[a] += l * ak;
      }
    }
    for (int a = kTile - 1; a >= 0; --a) {
      double x = u[i + a] - lane_sum(acc[a]);
      for (int b = kTile - 1; b > a; --b) x -= L[(i + a) * N + i + b] * alpha[i + b];
      alpha[i + a] = x / L[(i + a) * N + i + a];
    }
  }
}

// sum_j log L(j, j) for j < n with one log per 512 terms (libm's log costs as much as the
// forward solve for alpha): L(j, j) = m_j 2^e_j with m_j in [1, 2) (normal: the root of a positive
// double is >= 1e-162), so the sum is ln 2 sum e_j + log prod m_j. Infinity if an L(j, j) is.
double log_diagonal_sum(const double* L, Index n, Index N) {
  constexpr std::uint64_t kMantissa = (std::uint64_t{1} << 52) - 1;
  constexpr std::uint64_t kOne = std::bit_cast<std::uint64_t>(1.0);
  std::int64_t exponents = 0;
  double sum = 0.0;
  for (Index j0 = 0; j0 < n; j0 += 512) {
    double product = 1.0;  // < 2^512
    for (Index j = j0; j < std::min(n, j0 + 512); ++j) {
      const double l = L[j * (N + 1)];
      if (!(l < std::numeric_limits<double>::infinity())) return l;
      const auto bits = std::bit_cast<std::uint64_t>(l);
      exponents += static_cast<std::int64_t>(bits >> 52) - 1023;
      product *= std::bit_cast<double>((bits & kMantissa) | kOne);
    }
    sum += std::log(product);
  }
  return sum + std::numbers::ln2 * static_cast<double>(exponents);
}

}  // namespace

double log_marginal_likelihood(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                               const SeHyper& hyper, Eigen::Vector3d* grad) {
  return log_marginal_likelihood_sq(squared_distances(X, X), y, hyper, grad);
}

double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& hyper, Eigen::Vector3d* grad) {
  LmlWorkspace ws;
  return log_marginal_likelihood_sq(D, y, hyper, grad, ws);
}

double log_marginal_likelihood_sq(const Eigen::MatrixXd& D, const Eigen::VectorXd& y,
                                  const SeHyper& h, Eigen::Vector3d* grad, LmlWorkspace& ws) {
  const Index n = y.size();
  const Index N = padded_size(n);
  const double minus_inf = -std::numeric_limits<double>::infinity();
  ws.Kf.resize(N, N);
  ws.M.resize(N, N);
  ws.L.resize(N, N);
  ws.u.setZero(N);
  ws.alpha.resize(N);
  // K = Kf + sigma^2 I is factored in place in L.
  kernel_tiles(D.data(), n, h, N, ws.Kf.data(), ws.M.data(), ws.L.data());
  if (!cholesky_lower(ws.L.data(), N)) return minus_inf;
  ws.u.head(n) = y;
  solve_alpha(ws.L.data(), ws.u.data(), ws.alpha.data(), N);
  const double log_det = 2.0 * log_diagonal_sum(ws.L.data(), n, N);
  // R&W eq. 5.8: -1/2 y^T K^-1 y - 1/2 log|K| - n/2 log 2 pi.
  const double lml = -0.5 * y.dot(ws.alpha.head(n)) - 0.5 * log_det -
                     0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
  if (!std::isfinite(lml)) return minus_inf;
  if (grad) {
    // R&W eq. 5.9: d/d theta_j = 1/2 tr(W dK/d theta_j), W = alpha alpha^T - K^-1, with
    // dK/dlog l = Kf .* D / l^2, dK/dlog sigma_0^2 = Kf, dK/dlog sigma^2 = sigma^2 I: sums of
    // W times Kf .* D, Kf and I over the symmetric matrices, from K^-1 = L^-T L^-1.
    ws.T.resize(N, N);
    transposed_inverse(ws.L.data(), ws.T.data(), N);
    const Eigen::Vector3d s =
        gradient_sums(ws.T.data(), ws.Kf.data(), ws.M.data(), ws.alpha.data(), n, N);
    (*grad)[0] = 0.5 * s[0] / (h.lengthscale * h.lengthscale);
    (*grad)[1] = 0.5 * s[1];
    (*grad)[2] = 0.5 * h.noise_var * s[2];
  }
  return lml;
}

}  // namespace fbosim::gp

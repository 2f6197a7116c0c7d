#include "datasets/landmine/rbf_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "core/fast_exp.hpp"
#include "core/simd_clones.hpp"

namespace fbosim::datasets {

namespace {

constexpr std::size_t kLanes = 4;
using D4 = double __attribute__((vector_size(kLanes * sizeof(double))));

// a[i] = exp(a[i]).
void exp_in_place(double* a, std::size_t n, KernelExp exp) {
  if (exp == KernelExp::vector) {
    core::fast_exp(a, a, static_cast<std::ptrdiff_t>(n));
    return;
  }
  for (std::size_t i = 0; i < n; ++i) a[i] = std::exp(a[i]);
}

// out[p] = sum_s coef[s] k[s * stride + p] - rho for p < stride (a multiple of the lanes), the
// sum over s in order for every p (a lane per point: the same operations as one at a time).
FBOSIM_SIMD_CLONES void weighted_sums(const double* k, const double* coef, std::size_t count,
                                      std::size_t stride, double rho, double* out) {
  for (std::size_t p = 0; p < stride; p += kLanes) {
    D4 sum{};
    for (std::size_t s = 0; s < count; ++s) {
      D4 v;
      std::memcpy(&v, k + s * stride + p, sizeof v);
      sum += coef[s] * v;
    }
    sum -= rho;
    std::memcpy(out + p, &sum, sizeof sum);
  }
}

}  // namespace

RbfKernels::RbfKernels(const RbfDistances& d, double gamma, KernelExp exp)
    : d_(d), n_(static_cast<std::size_t>(d.train_size())), gamma_(gamma), exp_(exp) {
  if (!(gamma > 0)) throw std::invalid_argument("RbfKernels: gamma must be > 0");
  // Kernel::kernel_rbf: exp(-gamma*(x_square[i]+x_square[j]-2*dot(x[i],x[j]))).
  const std::size_t pairs = d.train_rbf().size();
  const auto k = std::make_unique_for_overwrite<double[]>(pairs);
  for (std::size_t i = 0; i < pairs; ++i) k[i] = -gamma_ * d.train_rbf()[i];
  exp_in_place(k.get(), pairs, exp_);
  values_ = std::make_unique_for_overwrite<float[]>(n_ * n_);
  diagonal_.resize(n_);
  for (std::size_t r = 0; r < n_; ++r) {
    for (std::size_t c = 0; c <= r; ++c) {
      const auto v = static_cast<float>(k[RbfDistances::packed(r, c)]);
      values_[r * n_ + c] = v;
      values_[c * n_ + r] = v;
    }
    diagonal_[r] = k[RbfDistances::packed(r, r)];
  }
}

std::vector<double> RbfKernels::decisions(const SvcModel& model, Points which,
                                          const std::vector<int>& rows) const {
  const std::size_t count = model.sv.size(), points = rows.size();
  const std::size_t stride = (points + kLanes - 1) / kLanes * kLanes;
  const auto m = static_cast<std::size_t>(d_.valid_size());
  // Kernel::k_function: exp(-gamma*sum) of the squared differences, for every support vector
  // (rows of k) and point (columns; the padding columns are exp(0) and dropped).
  const auto k = std::make_unique_for_overwrite<double[]>(count * stride);
  for (std::size_t s = 0; s < count; ++s) {
    const auto c = static_cast<std::size_t>(model.sv[s]);
    double* row = &k[s * stride];
    for (std::size_t i = 0; i < points; ++i) {
      const auto p = static_cast<std::size_t>(rows[i]);
      const double sum = which == Points::validation ? d_.valid_diff()[c * m + p]
                         : p >= c                    ? d_.train_diff()[RbfDistances::packed(p, c)]
                                                     : d_.train_diff()[RbfDistances::packed(c, p)];
      row[i] = -gamma_ * sum;
    }
    std::fill(row + points, row + stride, 0.0);
  }
  exp_in_place(k.get(), count * stride, exp_);
  std::vector<double> out(stride);
  weighted_sums(k.get(), model.coef.data(), count, stride, model.rho, out.data());
  out.resize(points);
  return out;
}

}  // namespace fbosim::datasets

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "algorithms/surrogate/real_fft.hpp"
#include "core/rng.hpp"

using fbosim::core::RngStream;
using fbosim::surrogate::RealFft;
using cd = std::complex<double>;

namespace {
// The DFT by its definition, O(L^2): sign -1 forward, +1 inverse.
std::vector<cd> dft(const std::vector<cd>& x, int sign) {
  const auto L = x.size();
  std::vector<cd> out(L);
  for (std::size_t k = 0; k < L; ++k)
    for (std::size_t j = 0; j < L; ++j)
      out[k] += x[j] * std::polar(1.0, sign * 2 * std::numbers::pi * double(j * k % L) / double(L));
  return out;
}
}  // namespace

TEST_CASE("RealFft: forward and inverse match the DFT's definition") {
  RngStream rng(5);
  for (Eigen::Index L : {2, 6, 8, 30, 64}) {
    const RealFft& fft = RealFft::of_size(L);
    CHECK(&fft == &RealFft::of_size(L));  // one plan per length
    std::vector<double> x(L);
    std::vector<cd> xc(L);
    for (Eigen::Index j = 0; j < L; ++j) xc[j] = x[j] = rng.normal();
    std::vector<cd> X;
    fft.forward(x, X);
    const std::vector<cd> ref = dft(xc, -1);
    REQUIRE(X.size() == static_cast<std::size_t>(L / 2 + 1));
    for (std::size_t k = 0; k < X.size(); ++k) CHECK(std::abs(X[k] - ref[k]) < 1e-12 * L);
    // Inverse of a Hermitian spectrum given by its first half.
    std::vector<cd> half(L / 2 + 1), whole(L);
    for (Eigen::Index k = 0; k <= L / 2; ++k) half[k] = cd(rng.normal(), rng.normal());
    half[0] = half[0].real();
    half[L / 2] = half[L / 2].real();
    for (Eigen::Index k = 0; k < L; ++k) whole[k] = k <= L / 2 ? half[k] : std::conj(half[L - k]);
    const std::vector<cd> back = dft(whole, +1);
    std::vector<double> y;
    const std::vector<cd> kept = half;
    fft.inverse(half, y);
    CHECK(half == kept);  // the input survives
    for (Eigen::Index j = 0; j < L; ++j) {
      CHECK(std::abs(y[j] - back[j].real()) < 1e-12 * L);
      CHECK(std::abs(back[j].imag()) < 1e-12 * L);
    }
    fft.inverse(X, y);
    for (Eigen::Index j = 0; j < L; ++j) CHECK(std::abs(y[j] - L * x[j]) < 1e-12 * L);
  }
}

TEST_CASE("RealFft: odd or tiny lengths and mismatched inputs are rejected") {
  CHECK_THROWS_AS(RealFft::of_size(0), std::invalid_argument);
  CHECK_THROWS_AS(RealFft::of_size(7), std::invalid_argument);
  std::vector<cd> X;
  CHECK_THROWS_AS(RealFft::of_size(8).forward(std::vector<double>(6), X), std::invalid_argument);
  std::vector<double> y;
  CHECK_THROWS_AS(RealFft::of_size(8).inverse(std::vector<cd>(4), y), std::invalid_argument);
}

#pragma once
// The discrete Fourier transform of a real sequence of even length L, through FFTW (Frigo &
// Johnson 2005): forward X_k = sum_j x_j e^{-2 pi i jk/L} for k = 0..L/2 (the other half is
// conj(X_{L-k})), inverse x_j = sum_k X_k e^{+2 pi i jk/L} over the whole Hermitian spectrum
// (unnormalised: inverse(forward(x)) = L x). Plans are made once per length for the whole
// process, with FFTW_ESTIMATE (no timing, so the same plan on every run) and FFTW_NO_SIMD:
// scalar codelets give the same bits on every x86-64 CPU, which SIMD codelets chosen by the
// CPU's features would not (about 3x the instructions; see docs/ARCHITECTURE.md).
#include <complex>
#include <vector>

#include <Eigen/Core>

namespace fbosim::surrogate {

class RealFft {
 public:
  /// The transform of length L (even, >= 2), shared by every caller; thread-safe.
  static const RealFft& of_size(Eigen::Index L);

  Eigen::Index size() const { return L_; }
  /// out (L/2 + 1 values) = the first half of the spectrum of in (L values).
  void forward(const std::vector<double>& in, std::vector<std::complex<double>>& out) const;
  /// out (L values) = sum over the Hermitian spectrum whose first half is in (L/2 + 1 values);
  /// in is not modified.
  void inverse(const std::vector<std::complex<double>>& in, std::vector<double>& out) const;

  RealFft(const RealFft&) = delete;
  RealFft& operator=(const RealFft&) = delete;
  ~RealFft();

 private:
  explicit RealFft(Eigen::Index L);
  Eigen::Index L_;
  void* forward_plan_;  // fftw_plan, opaque here to keep fftw3.h out of the header
  void* inverse_plan_;
};

}  // namespace fbosim::surrogate

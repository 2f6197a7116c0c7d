#include "algorithms/surrogate/real_fft.hpp"

#include <fftw3.h>

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace fbosim::surrogate {

namespace {
// FFTW's planner is not thread-safe (its executor is): every plan is made and destroyed here.
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

constexpr unsigned kFlags = FFTW_ESTIMATE | FFTW_NO_SIMD;

// Scratch arrays from fftw_malloc: execution on new arrays needs the planned alignment.
struct Scratch {
  double* real;
  fftw_complex* spectrum;
  explicit Scratch(Eigen::Index L)
      : real(fftw_alloc_real(static_cast<std::size_t>(L))),
        spectrum(fftw_alloc_complex(static_cast<std::size_t>(L / 2 + 1))) {
    if (!real || !spectrum) throw std::bad_alloc();
  }
  ~Scratch() {
    fftw_free(real);
    fftw_free(spectrum);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};
}  // namespace

const RealFft& RealFft::of_size(Eigen::Index L) {
  if (L < 2 || L % 2 != 0)
    throw std::invalid_argument("RealFft: length must be even and >= 2, got " + std::to_string(L));
  static std::mutex cache_mutex;
  static std::map<Eigen::Index, std::unique_ptr<RealFft>> cache;
  const std::lock_guard<std::mutex> lock(cache_mutex);
  auto& slot = cache[L];
  if (!slot) slot.reset(new RealFft(L));
  return *slot;
}

RealFft::RealFft(Eigen::Index L) : L_(L) {
  const Scratch s(L);
  const std::lock_guard<std::mutex> lock(planner_mutex());
  const int n = static_cast<int>(L);
  forward_plan_ = fftw_plan_dft_r2c_1d(n, s.real, s.spectrum, kFlags);
  inverse_plan_ = fftw_plan_dft_c2r_1d(n, s.spectrum, s.real, kFlags);
  if (!forward_plan_ || !inverse_plan_)
    throw std::runtime_error("RealFft: FFTW could not plan a transform of length " +
                             std::to_string(L));
}

RealFft::~RealFft() {
  const std::lock_guard<std::mutex> lock(planner_mutex());
  fftw_destroy_plan(static_cast<fftw_plan>(forward_plan_));
  fftw_destroy_plan(static_cast<fftw_plan>(inverse_plan_));
}

void RealFft::forward(const std::vector<double>& in, std::vector<std::complex<double>>& out) const {
  if (static_cast<Eigen::Index>(in.size()) != L_)
    throw std::invalid_argument("RealFft::forward: input length differs from the plan's");
  Scratch s(L_);
  std::copy(in.begin(), in.end(), s.real);
  fftw_execute_dft_r2c(static_cast<fftw_plan>(forward_plan_), s.real, s.spectrum);
  out.resize(static_cast<std::size_t>(L_ / 2 + 1));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = {s.spectrum[k][0], s.spectrum[k][1]};
}

void RealFft::inverse(const std::vector<std::complex<double>>& in, std::vector<double>& out) const {
  if (static_cast<Eigen::Index>(in.size()) != L_ / 2 + 1)
    throw std::invalid_argument("RealFft::inverse: spectrum length differs from the plan's");
  Scratch s(L_);  // c2r overwrites its input: the caller's spectrum is copied first
  for (std::size_t k = 0; k < in.size(); ++k) {
    s.spectrum[k][0] = in[k].real();
    s.spectrum[k][1] = in[k].imag();
  }
  fftw_execute_dft_c2r(static_cast<fftw_plan>(inverse_plan_), s.spectrum, s.real);
  out.assign(s.real, s.real + L_);
}

}  // namespace fbosim::surrogate

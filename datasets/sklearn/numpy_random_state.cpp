#include "datasets/sklearn/numpy_random_state.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace fbosim::datasets {

namespace {

constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU, kUpperMask = 0x80000000U, kLowerMask = 0x7fffffffU;

// The smallest all-ones mask >= max (numpy's gen_mask).
std::uint64_t mask_of(std::uint64_t max) {
  std::uint64_t mask = max;
  for (int shift = 1; shift <= 32; shift *= 2) mask |= mask >> shift;
  return mask;
}

}  // namespace

NumpyRandomState::NumpyRandomState(std::uint32_t seed) {
  // init_genrand (numpy's mt19937_seed).
  key_[0] = seed;
  for (int i = 1; i < kN; ++i)
    key_[i] = 1812433253U * (key_[i - 1] ^ (key_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
  pos_ = kN;
}

NumpyRandomState NumpyRandomState::from_array(const std::vector<std::uint32_t>& key) {
  if (key.empty()) throw std::invalid_argument("NumpyRandomState: the seed array is empty");
  NumpyRandomState s(19650218U);  // init_by_array starts from init_genrand(19650218)
  auto& mt = s.key_;
  std::size_t i = 1, j = 0;
  for (std::size_t k = std::max<std::size_t>(kN, key.size()); k > 0; --k) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] +
            static_cast<std::uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      mt[0] = mt[kN - 1];
      i = 1;
    }
    if (j >= key.size()) j = 0;
  }
  for (std::size_t k = kN - 1; k > 0; --k) {
    mt[i] =
        (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - static_cast<std::uint32_t>(i);
    ++i;
    if (i >= kN) {
      mt[0] = mt[kN - 1];
      i = 1;
    }
  }
  mt[0] = 0x80000000U;  // the most significant bit is 1: a non-zero initial state
  s.pos_ = kN;
  return s;
}

void NumpyRandomState::reload() {
  const auto twist = [](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t y = (a & kUpperMask) | (b & kLowerMask);
    return (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
  };
  int k = 0;
  for (; k < kN - kM; ++k) key_[k] = key_[k + kM] ^ twist(key_[k], key_[k + 1]);
  for (; k < kN - 1; ++k) key_[k] = key_[k + kM - kN] ^ twist(key_[k], key_[k + 1]);
  key_[kN - 1] = key_[kM - 1] ^ twist(key_[kN - 1], key_[0]);
  pos_ = 0;
}

std::uint32_t NumpyRandomState::next_uint32() {
  if (pos_ >= kN) reload();
  std::uint32_t y = key_[pos_++];
  // Tempering.
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

std::uint64_t NumpyRandomState::next_uint64() {
  const std::uint64_t high = next_uint32();
  return (high << 32) | next_uint32();
}

std::uint64_t NumpyRandomState::random_interval(std::uint64_t max) {
  if (max == 0) return 0;
  const std::uint64_t mask = mask_of(max);
  std::uint64_t value;
  if (max <= 0xffffffffU) {
    while ((value = (next_uint32() & mask)) > max) {
    }
  } else {
    while ((value = (next_uint64() & mask)) > max) {
    }
  }
  return value;
}

std::int64_t NumpyRandomState::randint(std::int64_t low, std::int64_t high) {
  if (!(low < high)) throw std::invalid_argument("NumpyRandomState::randint: needs low < high");
  // numpy draws off + a bounded integer on [0, rng], rng = high - 1 - low, in uint64.
  const std::uint64_t rng = static_cast<std::uint64_t>(high) - 1 - static_cast<std::uint64_t>(low);
  const auto off = static_cast<std::uint64_t>(low);
  if (rng == 0) return low;
  std::uint64_t value;
  if (rng == 0xffffffffU) {
    value = next_uint32();
  } else if (rng < 0xffffffffU) {
    const std::uint64_t mask = mask_of(rng);
    while ((value = (next_uint32() & mask)) > rng) {
    }
  } else if (rng == std::numeric_limits<std::uint64_t>::max()) {
    value = next_uint64();
  } else {
    const std::uint64_t mask = mask_of(rng);
    while ((value = (next_uint64() & mask)) > rng) {
    }
  }
  return static_cast<std::int64_t>(off + value);
}

std::vector<std::int64_t> NumpyRandomState::permutation(std::int64_t n) {
  if (n < 0) throw std::invalid_argument("NumpyRandomState::permutation: n must be >= 0");
  std::vector<std::int64_t> arr(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < arr.size(); ++i) arr[i] = static_cast<std::int64_t>(i);
  shuffle(arr);
  return arr;
}

}  // namespace fbosim::datasets

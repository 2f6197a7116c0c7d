#pragma once
// numpy's legacy np.random.RandomState (numpy 1.17-1.26, the generator scikit-learn's
// check_random_state(int) returns), reproduced draw for draw for the calls scikit-learn's
// splitters make: MT19937 (Matsumoto & Nishimura 1998, mt19937ar.c) seeded as numpy seeds it
// (an int seed: init_genrand; a seed array: init_by_array), 32-bit outputs, the legacy bounded
// integers of randint (masked rejection: draw, keep the bits under the smallest all-ones mask
// >= the range, retry while above it) and shuffle / permutation / choice without replacement
// (Fisher-Yates from the last element down, each index from random_interval, numpy's masked
// rejection on the 32-bit output). Used to reproduce a split the papers' authors drew with
// random_state = 0 (datasets/sklearn/stratified_split.hpp); tested against numpy itself
// (tests/tools/sklearn_reference.py). Not for fbosim's own randomness (core::RngStream).
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace fbosim::datasets {

class NumpyRandomState {
 public:
  /// np.random.RandomState(seed) for an integer seed in [0, 2^32): init_genrand(seed).
  explicit NumpyRandomState(std::uint32_t seed);
  /// np.random.RandomState(key) for a 1-d array of integers in [0, 2^32): init_by_array(key).
  /// Throws std::invalid_argument for an empty key (numpy refuses it too).
  static NumpyRandomState from_array(const std::vector<std::uint32_t>& key);

  /// The next 32-bit output (genrand_int32; numpy's next_uint32 of its legacy MT19937).
  std::uint32_t next_uint32();
  /// Two outputs, the first in the high word (numpy's next_uint64 of MT19937).
  std::uint64_t next_uint64();

  /// randint(low, high) with numpy's default integer dtype: uniform on {low, ..., high - 1} by
  /// masked rejection (legacy random_bounded_uint64 with use_masked). Throws
  /// std::invalid_argument unless low < high.
  std::int64_t randint(std::int64_t low, std::int64_t high);
  /// numpy's random_interval(max): uniform on {0, ..., max} by masked rejection (the index
  /// draw of shuffle).
  std::uint64_t random_interval(std::uint64_t max);

  /// shuffle(x) of a 1-d array: for i = n-1 down to 1, swap x[i] and x[random_interval(i)].
  template <class T>
  void shuffle(std::vector<T>& x) {
    for (std::size_t i = x.size(); i-- > 1;) {
      const auto j = static_cast<std::size_t>(random_interval(i));
      std::swap(x[i], x[j]);
    }
  }
  /// permutation(n): a shuffled arange(n).
  std::vector<std::int64_t> permutation(std::int64_t n);
  /// permutation(x) of a 1-d array: a shuffled copy.
  template <class T>
  std::vector<T> permutation(std::vector<T> x) {
    shuffle(x);
    return x;
  }
  /// choice(pool, size, replace=False) without probabilities: permutation(len(pool))[:size]
  /// applied to pool (numpy's legacy path, which shuffles the whole pool even for size 0).
  /// Throws std::invalid_argument for size > pool.size(), as numpy raises ValueError.
  template <class T>
  std::vector<T> choice_without_replacement(const std::vector<T>& pool, std::size_t size);

 private:
  NumpyRandomState() = default;
  void reload();  // the next 624 words (the "generate N words at one time" step)

  static constexpr int kN = 624;
  std::array<std::uint32_t, kN> key_{};
  int pos_ = kN;
};

template <class T>
std::vector<T> NumpyRandomState::choice_without_replacement(const std::vector<T>& pool,
                                                            std::size_t size) {
  if (size > pool.size())
    throw std::invalid_argument(
        "NumpyRandomState::choice: cannot take a larger sample than the pool without replacement");
  const std::vector<std::int64_t> idx = permutation(static_cast<std::int64_t>(pool.size()));
  std::vector<T> out;
  for (std::size_t k = 0; k < size; ++k) out.push_back(pool[static_cast<std::size_t>(idx[k])]);
  return out;
}

}  // namespace fbosim::datasets

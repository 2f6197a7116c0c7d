#pragma once
// Named random streams (house rule 2): every draw in fbosim comes from an RngStream obtained
// from RngFactory::stream(purpose, index). A stream's seed depends only on (seed, run,
// purpose, index), so adding an agent, a config key or a thread never shifts another stream,
// and a sweep over server parameters keeps the agents' objectives (common random numbers).
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <boost/random/mersenne_twister.hpp>

namespace fbosim::core {

/// One independent pseudo-random stream (Boost.Random mt19937_64).
class RngStream {
 public:
  explicit RngStream(std::uint64_t seed);

  double uniform();                               ///< U[0, 1)
  double uniform(double lo, double hi);           ///< U[lo, hi)
  double normal();                                ///< N(0, 1)
  bool bernoulli(double p);                       ///< true with probability p
  std::uint64_t uniform_int(std::uint64_t n);     ///< uniform on {0, ..., n-1}; n >= 1
  Eigen::VectorXd normal_vector(Eigen::Index n);  ///< iid N(0,1)
  Eigen::MatrixXd normal_matrix(Eigen::Index rows, Eigen::Index cols);   ///< iid N(0,1)
  Eigen::MatrixXd uniform_matrix(Eigen::Index rows, Eigen::Index cols);  ///< iid U[0,1)

  boost::random::mt19937_64& engine() { return engine_; }

 private:
  boost::random::mt19937_64 engine_;
};

/// Fisher-Yates shuffle of v from rng: for i = n-1, ..., 1, swap v[i] with v[uniform_int(i + 1)].
/// One draw order everywhere, so the same stream gives the same permutation on every platform
/// (std::shuffle's is implementation-defined).
template <class T>
void shuffle(std::vector<T>& v, RngStream& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.uniform_int(i)]);
}

/// Streams of one run of one experiment: (seed, run) -> stream(purpose, index).
class RngFactory {
 public:
  RngFactory(std::uint64_t seed, std::uint64_t run) : seed_(seed), run_(run) {}
  /// The stream for `purpose` (a short stable name such as "objective" or "agent.propose")
  /// and `index` (an agent number, a round number, or both combined by the caller).
  RngStream stream(std::string_view purpose, std::uint64_t index = 0) const;
  /// Same, keyed by two indices (e.g. agent and round).
  RngStream stream(std::string_view purpose, std::uint64_t i, std::uint64_t j) const;

  std::uint64_t seed() const { return seed_; }
  std::uint64_t run() const { return run_; }

 private:
  std::uint64_t seed_;
  std::uint64_t run_;
};

/// SplitMix64 finaliser: a bijective 64-bit mixer (Steele, Lea, Flood 2014).
std::uint64_t mix64(std::uint64_t x);
/// FNV-1a hash of a string, mixed; stable across platforms and compilers.
std::uint64_t hash_name(std::string_view name);

}  // namespace fbosim::core

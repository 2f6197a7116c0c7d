#include "core/rng.hpp"

#include <algorithm>
#include <iterator>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

namespace fbosim::core {

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t hash_name(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return mix64(h);
}

namespace {
// The state of a stream: the 4 words (key, mix64(key)) go through the C++ standard's seed_seq
// algorithm (boost::random::seed_seq::generate) to the 624 32-bit words of mt19937_64's state,
// so that nearby keys give unrelated streams. This is that algorithm specialised to 4 input
// and 624 output words: boost's loop computes three indices mod n by integer division per word,
// which made a stream cost 67 k instructions (36,400 streams per synthetic run); here each pass
// runs in three stretches without wraparound and carries the word written last. The words are
// the same (tests/core/rng_test.cpp compares the engines with boost's for many keys).
constexpr std::size_t kStateWords = 624;  // mt19937_64: 312 64-bit words, two 32-bit words each

void seed_seq_words(const std::uint32_t (&v)[4], std::uint32_t (&b)[kStateWords]) {
  constexpr std::size_t n = kStateWords, s = 4, t = 11, p = (n - t) / 2, q = p + t;
  static_assert(s + 1 < n - q);
  std::fill(std::begin(b), std::end(b), 0x8b8b8b8bu);
  // step(k, (k + p) mod n, (k + q) mod n) for k = from .. n - 1.
  const auto sweep = [](std::size_t from, auto&& step) {
    std::size_t k = from;
    for (; k < n - q; ++k) step(k, k + p, k + q);
    for (; k < n - p; ++k) step(k, k + p, k + q - n);
    for (; k < n; ++k) step(k, k + p - n, k + q - n);
  };
  // b[(k + n - 1) mod n] is always the word written last (no other write reaches it before it
  // is read), so it is carried in a register.
  std::uint32_t prev = b[n - 1];
  // First pass, k = 0 .. m - 1 with m = max(s + 1, n) = n.
  const auto first = [&](std::size_t k, std::size_t kp, std::size_t kq, std::uint32_t add) {
    std::uint32_t r1 = b[k] ^ b[kp] ^ prev;
    r1 = (r1 ^ (r1 >> 27)) * 1664525u;
    const std::uint32_t r2 = r1 + add;
    b[kp] += r1;
    b[kq] += r2;
    b[k] = prev = r2;
  };
  first(0, p, q, s);
  for (std::size_t k = 1; k <= s; ++k)
    first(k, k + p, k + q, static_cast<std::uint32_t>(k) + v[k - 1]);
  sweep(s + 1, [&](std::size_t k, std::size_t kp, std::size_t kq) {
    first(k, kp, kq, static_cast<std::uint32_t>(k));
  });
  // Second pass, k = m .. m + n - 1, indexed by k mod n.
  sweep(0, [&](std::size_t k, std::size_t kp, std::size_t kq) {
    std::uint32_t r3 = b[k] + b[kp] + prev;
    r3 = (r3 ^ (r3 >> 27)) * 1566083941u;
    const std::uint32_t r4 = r3 - static_cast<std::uint32_t>(k);
    b[kp] ^= r3;
    b[kq] ^= r4;
    b[k] = prev = r4;
  });
}

boost::random::mt19937_64 seeded_engine(std::uint64_t key) {
  const std::uint32_t words[4] = {
      static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32),
      static_cast<std::uint32_t>(mix64(key)), static_cast<std::uint32_t>(mix64(key) >> 32)};
  std::uint32_t state[kStateWords];
  seed_seq_words(words, state);
  // The iterator constructor packs word pairs (low word first) exactly as seeding from a
  // seed_seq does, then normalises the state likewise.
  const std::uint32_t* first = state;
  const std::uint32_t* const last = state + kStateWords;
  return boost::random::mt19937_64(first, last);
}
}  // namespace

RngStream::RngStream(std::uint64_t seed) : engine_(seeded_engine(seed)) {}

double RngStream::uniform() { return boost::random::uniform_01<double>()(engine_); }

double RngStream::uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

double RngStream::normal() { return boost::random::normal_distribution<double>()(engine_); }

bool RngStream::bernoulli(double p) { return uniform() < p; }

std::uint64_t RngStream::uniform_int(std::uint64_t n) {
  return boost::random::uniform_int_distribution<std::uint64_t>(0, n - 1)(engine_);
}

Eigen::VectorXd RngStream::normal_vector(Eigen::Index n) {
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = normal();
  return v;
}

Eigen::MatrixXd RngStream::normal_matrix(Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd m(rows, cols);
  // Row by row so that the first rows do not depend on the number of columns' layout.
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = normal();
  return m;
}

Eigen::MatrixXd RngStream::uniform_matrix(Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) m(r, c) = uniform();
  return m;
}

RngStream RngFactory::stream(std::string_view purpose, std::uint64_t index) const {
  return stream(purpose, index, 0);
}

RngStream RngFactory::stream(std::string_view purpose, std::uint64_t i, std::uint64_t j) const {
  std::uint64_t key = mix64(seed_);
  key = mix64(key ^ run_);
  key = mix64(key ^ hash_name(purpose));
  key = mix64(key ^ i);
  key = mix64(key ^ (j * 0x9e3779b97f4a7c15ULL));
  return RngStream(key);
}

}  // namespace fbosim::core

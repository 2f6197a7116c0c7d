#include "sim/core/rng.hpp"

#include <boost/random/normal_distribution.hpp>
#include <boost/random/seed_seq.hpp>
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
boost::random::mt19937_64 seeded_engine(std::uint64_t key) {
  // Fill the whole Mersenne-Twister state from the key through seed_seq so that nearby keys
  // give unrelated streams.
  const std::uint32_t words[4] = {
      static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32),
      static_cast<std::uint32_t>(mix64(key)), static_cast<std::uint32_t>(mix64(key) >> 32)};
  boost::random::seed_seq seq(std::begin(words), std::end(words));
  return boost::random::mt19937_64(seq);
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

// Trainings of the EMNIST CNN at random hyperparameters: accuracies and CPU time. NOT a test:
// run by hand, natively for CPU times or under `valgrind --tool=callgrind` for instruction
// counts. It uses only cnn_accuracy() and the objective's hyperparameter map, so the same file
// built against another trainer gives paired accuracies (the same writers, points and seeds).
//   bench_cnn <femnist_digits dir> [writers 10] [points 20] [first writer 0] [epochs 10]
// Prints "writer point lr decay l2 accuracy" per training, then the user CPU seconds per
// training after the first (which also loads what it needs). Point i is x ~ U[0,1]^3 from
// RngStream(1000 + i) for every writer; the training seed is mix64(writer 2^32 + i).
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "datasets/emnist/emnist_objective.hpp"
#include "core/rng.hpp"

using namespace fbosim;

namespace {
double user_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_cnn DIR [writers] [points] [first writer] [epochs]\n");
    return 2;
  }
  const int writers = argc > 2 ? std::atoi(argv[2]) : 10;
  const int points = argc > 3 ? std::atoi(argv[3]) : 20;
  const int first = argc > 4 ? std::atoi(argv[4]) : 0;
  datasets::CnnOptions o;
  if (argc > 5) o.epochs = std::atoi(argv[5]);
  const auto all = datasets::load_femnist_digits(argv[1]);
  double t0 = 0;
  int n = 0;
  for (int w = first; w < first + writers && w < static_cast<int>(all.size()); ++w)
    for (int i = 0; i < points; ++i) {
      core::RngStream rng(1000 + static_cast<std::uint64_t>(i));
      const Eigen::Vector3d h = datasets::emnist_hyperparameters(
          Eigen::Vector3d(rng.uniform(), rng.uniform(), rng.uniform()));
      const std::uint64_t seed =
          core::mix64((static_cast<std::uint64_t>(w) << 32) + static_cast<std::uint64_t>(i));
      const double a =
          datasets::cnn_accuracy(all[static_cast<std::size_t>(w)], o, h[0], h[1], h[2], seed);
      std::printf("%d %d %.9g %.9g %.9g %.17g\n", w, i, h[0], h[1], h[2], a);
      if (n++ == 0) t0 = user_seconds();
    }
  std::printf("# %d trainings, %.6f user CPU s per training after the first\n", n,
              n > 1 ? (user_seconds() - t0) / (n - 1) : 0.0);
  return 0;
}

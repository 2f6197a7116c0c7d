// Cost of the landmine objective (datasets::landmine_auc) on a fixed set of evaluations. NOT a
// test: run by hand, natively for wall times or under `valgrind --tool=callgrind` for
// instruction counts per evaluation (issue #27).
//   bench_landmine <LandmineData.mat> [points per field 4] [fields 29]
// Every field's authors' split (the papers' configs), scikit-learn's class order and coupling
// (the defaults), and `points` hyperparameters per field drawn uniformly from [0,1]^2 by a fixed
// stream, each with its own fold stream. Prints every AUC to 17 digits (a change of results
// shows as a diff) and the evaluations per second.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <Eigen/Core>

#include "datasets/landmine/landmine_objective.hpp"
#include "sim/core/rng.hpp"

using namespace fbosim;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_landmine <LandmineData.mat> [points per field] [fields]\n");
    return 2;
  }
  const int points = argc > 2 ? std::atoi(argv[2]) : 4;
  const std::vector<datasets::LandmineField> all = datasets::load_landmine(argv[1]);
  const int fields = argc > 3 ? std::atoi(argv[3]) : static_cast<int>(all.size());
  std::vector<datasets::LandmineSplit> splits;
  for (int f = 0; f < fields; ++f) splits.push_back(datasets::authors_split(all[f]));
  const core::RngFactory factory(27, 0);
  core::RngStream draw = factory.stream("bench.points");
  const auto start = std::chrono::steady_clock::now();
  int evaluations = 0;
  for (int f = 0; f < fields; ++f)
    for (int i = 0; i < points; ++i) {
      Eigen::Vector2d x(draw.uniform(), draw.uniform());
      core::RngStream folds = factory.stream("bench.folds", static_cast<std::uint64_t>(f), i);
      const double auc = datasets::landmine_auc(splits[f], x, datasets::SvmOptions{}, folds);
      std::printf("%d %.17g %.17g %.17g\n", f, x[0], x[1], auc);
      ++evaluations;
    }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "%d evaluations, %.3f s, %.2f ms each\n", evaluations, s,
               1e3 * s / evaluations);
  return 0;
}

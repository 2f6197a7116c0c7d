// Cost of the landmine objective (datasets::landmine_auc) on a fixed set of evaluations. NOT a
// test: run by hand, natively for wall times or under `valgrind --tool=callgrind` for
// instruction counts per evaluation (issue #27).
//   bench_landmine <LandmineData.mat> [points per field 4] [fields 29]
//   bench_landmine <LandmineData.mat> --trace <trace.csv> [every k-th row 1]
// Every field's authors' split (the papers' configs), scikit-learn's class order and coupling
// (the defaults). The first form draws `points` hyperparameters per field uniformly from [0,1]^2
// by a fixed stream; the second replays the queries of a run's trace.csv (agent n on field n,
// as in configs/dp_fts_de/landmine.yaml: the distribution BO actually queries), every k-th row.
// Each evaluation has its own fold stream. Prints every AUC to 17 digits (a change of results
// shows as a diff) and the evaluations per second.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "datasets/landmine/landmine_objective.hpp"
#include "core/rng.hpp"

using namespace fbosim;

namespace {

struct Query {
  int field;
  Eigen::Vector2d x;
};

// The columns agent, x0 and x1 of a trace.csv, every k-th row.
std::vector<Query> trace_queries(const std::string& path, int every) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("bench_landmine: cannot read " + path);
  std::string line;
  std::getline(in, line);  // run,agent,round,x0,x1,...
  std::vector<Query> out;
  for (long row = 0; std::getline(in, line); ++row) {
    if (row % every != 0) continue;
    std::stringstream s(line);
    std::string run, agent, round, x0, x1;
    std::getline(s, run, ',');
    std::getline(s, agent, ',');
    std::getline(s, round, ',');
    std::getline(s, x0, ',');
    std::getline(s, x1, ',');
    out.push_back({std::stoi(agent), Eigen::Vector2d(std::stod(x0), std::stod(x1))});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: bench_landmine <LandmineData.mat> [points per field] [fields]\n"
                 "       bench_landmine <LandmineData.mat> --trace <trace.csv> [every k-th]\n");
    return 2;
  }
  const std::vector<datasets::LandmineField> all = datasets::load_landmine(argv[1]);
  const core::RngFactory factory(27, 0);
  std::vector<Query> queries;
  if (argc > 3 && std::string(argv[2]) == "--trace") {
    queries = trace_queries(argv[3], argc > 4 ? std::atoi(argv[4]) : 1);
  } else {
    const int points = argc > 2 ? std::atoi(argv[2]) : 4;
    const int fields = argc > 3 ? std::atoi(argv[3]) : static_cast<int>(all.size());
    core::RngStream draw = factory.stream("bench.points");
    for (int f = 0; f < fields; ++f)
      for (int i = 0; i < points; ++i) {
        const double x1 = draw.uniform(), x0 = draw.uniform();  // the order of the first version
        queries.push_back({f, Eigen::Vector2d(x0, x1)});
      }
  }
  std::vector<datasets::LandmineSplit> splits;
  for (const datasets::LandmineField& f : all) splits.push_back(datasets::authors_split(f));
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> per_field(all.size(), 0);
  for (const Query& q : queries) {
    const int i = per_field[static_cast<std::size_t>(q.field)]++;
    core::RngStream folds = factory.stream("bench.folds", static_cast<std::uint64_t>(q.field), i);
    const double auc =
        datasets::landmine_auc(splits[static_cast<std::size_t>(q.field)], q.x, {}, folds);
    std::printf("%d %.17g %.17g %.17g\n", q.field, q.x[0], q.x[1], auc);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto n = static_cast<double>(queries.size());
  std::fprintf(stderr, "%zu evaluations, %.3f s, %.2f ms each\n", queries.size(), s, 1e3 * s / n);
  return 0;
}

// fbosim merge DIR... --out DIR [--allow-missing] [--force]
// Gathers the sweep.csv of the shards of one sweep into one (docs/SWEEPS.md).
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/sweep/sweep_merge.hpp"

namespace fbosim::cli {

void run(const MergeArgs& a) {
  // Missing points without --allow-missing fail before anything is written (MergeIncomplete).
  const sweep::MergeReport r = sweep::merge_sweeps(a.dirs, a.out, a.force, a.allow_missing);
  std::printf("merged %d of %d point(s) from %zu director%s into %s/sweep.csv", r.rows, r.points,
              a.dirs.size(), a.dirs.size() == 1 ? "y" : "ies", r.out_dir.c_str());
  if (r.duplicates > 0) std::printf(" (%d agreeing duplicate(s) dropped)", r.duplicates);
  std::printf("\n");
  if (r.missing.empty()) return;
  std::fprintf(stderr, "fbosim: %zu point(s) missing (--allow-missing):\n", r.missing.size());
  for (std::size_t k = 0; k < r.missing.size() && k < 20; ++k)
    std::fprintf(stderr, "  %s\n", r.missing[k].c_str());
  if (r.missing.size() > 20) std::fprintf(stderr, "  ... and %zu more\n", r.missing.size() - 20);
}

}  // namespace fbosim::cli

#include "sim/run/progress_line.hpp"

#include <unistd.h>
#include <cstdio>

namespace fbosim::run {

ProgressLine::ProgressLine(bool enabled, int runs)
    : enabled_(enabled), runs_(runs), tty_(isatty(2)) {}

ProgressLine::~ProgressLine() {
  if (shown_ && tty_) std::fprintf(stderr, "\n");
}

void ProgressLine::update(int run, int round, int rounds) {
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  if (elapsed < 1.0) return;
  const bool run_done = round == rounds;
  if (!tty_ && !run_done && elapsed - last_line_ < kInterval) return;
  last_line_ = elapsed;
  const double frac = (run + (round + 1.0) / (rounds + 1.0)) / runs_;
  const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
  std::fprintf(stderr, "%srun %d/%d round %d/%d  %.0f%%  %.1fs elapsed, ETA %.1fs%s",
               tty_ ? "\r" : "", run + 1, runs_, round, rounds, 100 * frac, elapsed, eta,
               tty_ ? "   " : "\n");
  shown_ = true;
}

}  // namespace fbosim::run

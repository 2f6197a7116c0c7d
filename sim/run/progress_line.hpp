#pragma once
// `fbosim run`'s progress on stderr after the first second: on a terminal one line redrawn in
// place; without one (Slurm, nohup, CI) a plain line at every finished run and at least every
// 10 s, so a long single run in a log still shows it advancing.
#include <chrono>

namespace fbosim::run {

class ProgressLine {
 public:
  ProgressLine(bool enabled, int runs);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Run `run` (0-based) reached round `round` of `rounds`.
  void update(int run, int round, int rounds);

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr double kInterval = 10.0;  // seconds between plain lines

  bool enabled_;
  int runs_;
  bool tty_;
  double last_line_ = 0;
  bool shown_ = false;
  Clock::time_point start_ = Clock::now();
};

}  // namespace fbosim::run

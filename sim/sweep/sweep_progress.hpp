#pragma once
// Progress of a sweep on stderr: on a terminal a bar redrawn in place (points done / total,
// ETA, the points running); otherwise one plain line per finished point
// ("[3/30] done <point> in 1.9 s, ETA 50 s"). Thread-safe: workers report, a ticker redraws.
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace fbosim::sweep {

class SweepProgress {
 public:
  /// total: points of this sweep (this shard); jobs: points run at once (for the ETA).
  SweepProgress(bool enabled, int total, int jobs);
  ~SweepProgress();
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

  void started(const std::string& point);
  /// skipped: found finished by an earlier sweep (not counted in the ETA's time per point).
  void finished(const std::string& point, double seconds, bool skipped);
  /// Drops a point that did not finish (error or interrupt) from the running list.
  void abandoned(const std::string& point);
  /// Redraws the bar (terminal only); called about once a second by the sweep.
  void tick();

 private:
  double eta_locked() const;
  void draw_locked();
  void forget_locked(const std::string& point);  // drops a point from the running list

  bool enabled_;
  bool tty_;
  int total_, jobs_;
  int done_ = 0, ran_ = 0;
  double ran_seconds_ = 0;
  std::vector<std::string> running_;
  std::vector<std::chrono::steady_clock::time_point> running_since_;
  bool drawn_ = false;
  std::mutex mutex_;
};

}  // namespace fbosim::sweep

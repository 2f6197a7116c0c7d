#include "sim/sweep/sweep_progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace fbosim::sweep {

namespace {
using Clock = std::chrono::steady_clock;

int terminal_width() {
  winsize w{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  return 100;
}
}  // namespace

SweepProgress::SweepProgress(bool enabled, int total, int jobs)
    : enabled_(enabled), tty_(::isatty(STDERR_FILENO) != 0), total_(total), jobs_(jobs) {}

SweepProgress::~SweepProgress() {
  if (drawn_) std::fprintf(stderr, "\n");
}

double SweepProgress::eta_locked() const {
  if (ran_ == 0) return -1;
  // Remaining points at the mean time per point run so far, jobs at a time, less the time the
  // running points have already spent.
  const double per_point = ran_seconds_ / ran_;
  double busy = 0;
  for (const auto& since : running_since_)
    busy += std::min(per_point, std::chrono::duration<double>(Clock::now() - since).count());
  return std::max(0.0, ((total_ - done_) * per_point - busy) / std::max(1, jobs_));
}

void SweepProgress::draw_locked() {
  const double eta = eta_locked();
  const int width = terminal_width();
  constexpr int kBar = 20;
  const int filled = total_ > 0 ? kBar * done_ / total_ : kBar;
  std::string line =
      fmt::format("[{}{}] {}/{}  ETA {}", std::string(filled, '#'), std::string(kBar - filled, '.'),
                  done_, total_, eta < 0 ? std::string("?") : fmt::format("{:.0f} s", eta));
  if (!running_.empty()) {
    line += "  running:";
    for (const std::string& p : running_) line += " " + p;
  }
  if (static_cast<int>(line.size()) > width - 1) line = line.substr(0, width - 4) + "...";
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void SweepProgress::started(const std::string& point) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  running_.push_back(point);
  running_since_.push_back(Clock::now());
  if (tty_) draw_locked();
}

void SweepProgress::forget_locked(const std::string& point) {
  const auto it = std::find(running_.begin(), running_.end(), point);
  if (it == running_.end()) return;
  running_since_.erase(running_since_.begin() + (it - running_.begin()));
  running_.erase(it);
}

void SweepProgress::abandoned(const std::string& point) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  forget_locked(point);
}

void SweepProgress::finished(const std::string& point, double seconds, bool skipped) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  forget_locked(point);
  ++done_;
  if (!skipped) {
    ++ran_;
    ran_seconds_ += seconds;
  }
  if (tty_) {
    draw_locked();
    return;
  }
  const double eta = eta_locked();
  if (skipped) {
    std::fprintf(stderr, "[%d/%d] skipped %s (finished by an earlier sweep)\n", done_, total_,
                 point.c_str());
  } else {
    std::fprintf(stderr, "[%d/%d] done %s in %.1f s, ETA %s\n", done_, total_, point.c_str(),
                 seconds, eta < 0 ? "?" : fmt::format("{:.0f} s", eta).c_str());
  }
}

void SweepProgress::tick() {
  if (!enabled_ || !tty_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  draw_locked();
}

}  // namespace fbosim::sweep

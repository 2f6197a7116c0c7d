#include "sim/run/time_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "sim/run/summary_table.hpp"

namespace fbosim::run {

namespace {

using timeline::Tick;

// An empty cell for a value that is not finite (no s.e. with one run), as summary.csv.
std::string time_cell(double x) { return std::isfinite(x) ? fmt::format("{}", x) : ""; }

}  // namespace

std::vector<AgentCurve> agent_curves(const SchedulePlan& plan, const RunResult& res) {
  const auto measured = static_cast<std::size_t>(res.best_f.cols());
  if (measured != plan.evaluations.size())
    throw std::logic_error(
        fmt::format("summary_time.csv: {} measured agents of {} on the time line", measured,
                    plan.evaluations.size()));
  std::vector<AgentCurve> out(measured);
  for (std::size_t m = 0; m < measured; ++m) {
    const auto& mine = plan.evaluations[m];
    AgentCurve& c = out[m];
    for (std::size_t k = 0; k < mine.size() && k < static_cast<std::size_t>(res.best_f.rows());
         ++k) {
      c.time.push_back(mine[k].complete);
      c.best_f.push_back(res.best_f(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(m)));
      c.regret.push_back(res.regret(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(m)));
    }
  }
  return out;
}

std::vector<Tick> time_grid(Tick end, int points) {
  if (points < 2 || end < 0)
    throw std::logic_error(fmt::format("time grid of {} points to {}", points, end));
  // floor(end i / (points - 1)) without overflow: end = a (points - 1) + b, b < points - 1.
  const Tick steps = points - 1, a = end / steps, b = end % steps;
  std::vector<Tick> grid;
  for (Tick i = 0; i < points; ++i) grid.push_back(a * i + b * i / steps);
  return grid;
}

double value_at(const std::vector<Tick>& time, const std::vector<double>& values, Tick t) {
  const auto after = std::upper_bound(time.begin(), time.end(), t);
  if (after == time.begin()) return std::numeric_limits<double>::quiet_NaN();
  return values[static_cast<std::size_t>(after - time.begin() - 1)];
}

std::optional<Tick> time_to_target(const std::vector<AgentCurve>& curves, double target) {
  if (curves.empty()) return std::nullopt;
  // Every completion in time order; the mean is tested once all those of an instant are in.
  std::vector<std::tuple<Tick, std::size_t, std::size_t>> events;
  for (std::size_t m = 0; m < curves.size(); ++m)
    for (std::size_t k = 0; k < curves[m].time.size(); ++k)
      events.emplace_back(curves[m].time[k], m, k);
  std::sort(events.begin(), events.end());
  std::vector<double> current(curves.size(), 0.0);
  std::vector<bool> seen(curves.size(), false);
  std::size_t present = 0;
  double sum = 0;  // of the current regrets, kept as a running sum
  for (std::size_t e = 0; e < events.size(); ++e) {
    const auto [t, m, k] = events[e];
    const double r = curves[m].regret[k];
    if (!seen[m]) {
      seen[m] = true;
      ++present;
    } else {
      sum -= current[m];
    }
    sum += r;
    current[m] = r;
    const bool instant_done = e + 1 == events.size() || std::get<0>(events[e + 1]) != t;
    if (instant_done && present == curves.size() &&
        sum / static_cast<double>(curves.size()) <= target)
      return t;
  }
  return std::nullopt;
}

TimeSummary::TimeSummary(const config::ExperimentSpec& spec) : spec_(spec) {}

void TimeSummary::add_run(const RunResult& res) {
  // The run's time line, replayed from its own streams (reports: whether a server collects
  // changes the releases only, never a completion).
  const core::RngFactory streams(spec_.seed, static_cast<std::uint64_t>(res.run));
  add_curves(agent_curves(plan_schedule(spec_, streams, false), res));
}

void TimeSummary::add_curves(std::vector<AgentCurve> curves) {
  if (!runs_.empty() && curves.size() != runs_.front().size())
    throw std::logic_error("summary_time.csv: runs with different numbers of measured agents");
  if (spec_.time_output.target_regret)
    reached_.push_back(time_to_target(curves, *spec_.time_output.target_regret));
  runs_.push_back(std::move(curves));
}

std::vector<Tick> TimeSummary::grid() const {
  Tick end = 0;
  if (spec_.time_output.end) {
    end = timeline::time_ticks(*spec_.time_output.end, "output.time_end");
  } else {
    for (const auto& run : runs_)
      for (const AgentCurve& c : run)
        if (!c.time.empty()) end = std::max(end, c.time.back());
  }
  return time_grid(end, spec_.time_output.grid);
}

std::string TimeSummary::csv() const {
  const std::size_t per_run = runs_.empty() ? 0 : runs_.front().size();
  std::string out = "time,mean_regret,se_regret,mean_best_f,se_best_f,n\n";
  std::vector<double> regret, best;
  for (const Tick t : grid()) {
    regret.clear();
    best.clear();
    for (const auto& run : runs_)
      for (const AgentCurve& c : run) {
        regret.push_back(value_at(c.time, c.regret, t));
        best.push_back(value_at(c.time, c.best_f, t));
      }
    const auto [mr, sr] = summary_mean_se(regret, per_run, spec_.se_over_pairs);
    const auto [mb, sb] = summary_mean_se(best, per_run, spec_.se_over_pairs);
    const auto n = std::count_if(best.begin(), best.end(), [](double x) { return !std::isnan(x); });
    out += fmt::format("{},{},{},{},{},{}\n", timeline::seconds(t), time_cell(mr), time_cell(sr),
                       time_cell(mb), time_cell(sb), n);
  }
  return out;
}

std::string TimeSummary::target_csv() const {
  if (!spec_.time_output.target_regret) return "";
  std::vector<double> times;
  for (const auto& t : reached_)
    if (t) times.push_back(timeline::seconds(*t));
  const auto [mean, se] = mean_se(times);
  const double shown_se = times.size() >= 2 ? se : std::numeric_limits<double>::quiet_NaN();
  return fmt::format("target_regret,runs,reached,never,mean_time,se_time\n{},{},{},{},{},{}\n",
                     *spec_.time_output.target_regret, reached_.size(), times.size(),
                     reached_.size() - times.size(), time_cell(mean), time_cell(shown_se));
}

}  // namespace fbosim::run

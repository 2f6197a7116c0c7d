#include "sim/run/summary_table.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/run/experiment_summary.hpp"
#include "sim/run/result_files.hpp"

namespace fbosim::run {

namespace {

std::string csv_number(double x) { return std::isfinite(x) ? fmt::format("{}", x) : ""; }

}  // namespace

std::pair<double, double> mean_se(const std::vector<double>& v) {
  double sum = 0, sum2 = 0;
  int n = 0;
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    sum += x;
    sum2 += x * x;
    ++n;
  }
  if (n == 0) return {std::nan(""), std::nan("")};
  const double mean = sum / n;
  const double var = n > 1 ? std::max(0.0, (sum2 - n * mean * mean) / (n - 1)) : 0.0;
  return {mean, std::sqrt(var / n)};
}

std::pair<double, double> summary_mean_se(const std::vector<double>& v, std::size_t per_run,
                                          bool over_pairs) {
  const auto [mean, pair_se] = mean_se(v);
  if (over_pairs || per_run == 0) return {mean, pair_se};
  std::vector<double> run_means;
  for (std::size_t i = 0; i + per_run <= v.size(); i += per_run) {
    const std::vector<double> run(v.begin() + static_cast<std::ptrdiff_t>(i),
                                  v.begin() + static_cast<std::ptrdiff_t>(i + per_run));
    const double m = mean_se(run).first;
    if (std::isfinite(m)) run_means.push_back(m);
  }
  if (run_means.size() < 2) return {mean, std::nan("")};
  return {mean, mean_se(run_means).second};
}

SummaryTable::SummaryTable(const config::ExperimentSpec& spec)
    : rounds_(spec.rounds),
      se_over_pairs_(spec.se_over_pairs),
      regret_(spec.rounds + 1),
      best_f_(spec.rounds + 1),
      epsilon_(static_cast<std::size_t>(spec.rounds) + 1, 0.0),
      extra_epsilon_(spec.server.accountants.size(), epsilon_) {
  if (const std::optional<double> dn = spec.delta_times_agents())
    delta_times_n_ = fmt::format("{}", *dn);
  const auto columns = spec.system->server_columns();
  tracks_aggregating_ =
      std::find(columns.begin(), columns.end(), protocol::StatColumn::aggregating) != columns.end();
  aggregated_.assign(static_cast<std::size_t>(spec.rounds), 0);
  if (spec.per_agent_ledgers) {
    epsilon_median_.assign(epsilon_.size(), 0.0);
    epsilon_p90_ = epsilon_median_;
  }
}

void SummaryTable::add_run(const RunResult& res) {
  for (int t = 0; t <= rounds_; ++t) {
    per_run_ = static_cast<std::size_t>(res.best_f.cols());
    for (Eigen::Index n = 0; n < res.best_f.cols(); ++n) {
      best_f_[t].push_back(res.best_f(t, n));
      regret_[t].push_back(res.regret(t, n));
    }
  }
  for (std::size_t t = 0; t < epsilon_.size(); ++t) {
    epsilon_[t] = std::max(epsilon_[t], res.epsilon.at(t));
    for (std::size_t a = 0; a < extra_epsilon_.size(); ++a)
      extra_epsilon_[a][t] = std::max(extra_epsilon_[a][t], res.extra_epsilon.at(a).at(t));
    if (epsilon_median_.empty()) continue;
    epsilon_median_[t] = std::max(epsilon_median_[t], res.epsilon_median.at(t));
    epsilon_p90_[t] = std::max(epsilon_p90_[t], res.epsilon_p90.at(t));
  }
  messages_ += res.messages;
  clipped_ += res.clipped;
  fallbacks_ += res.fallbacks;
  ++runs_;
  if (!tracks_aggregating_) return;
  const auto column = std::find(res.server_columns.begin(), res.server_columns.end(),
                                protocol::to_string(protocol::StatColumn::aggregating));
  if (column == res.server_columns.end())
    throw std::logic_error("server.csv of run " + std::to_string(res.run) +
                           " has no aggregating column");
  const auto k = static_cast<std::size_t>(column - res.server_columns.begin());
  // Under an asynchronous schedule server.csv's `round` is the release index, so row t tells
  // whether release t was made [choice: the release index in place of the round, as
  // server.stop_p]; a run with fewer releases than rounds counts as aggregating where it has
  // none, unless it stopped.
  std::vector<int> made(aggregated_.size(), -1);
  bool stopped = false;
  for (const ServerRow& row : res.server) {
    const bool on = row.stats.at(k) == "1";
    stopped = stopped || !on;
    if (row.round >= 0 && static_cast<std::size_t>(row.round) < made.size())
      made[static_cast<std::size_t>(row.round)] = on ? 1 : 0;
  }
  for (std::size_t t = 0; t < made.size(); ++t)
    if (made[t] == 1 || (made[t] < 0 && !stopped)) ++aggregated_[t];
}

std::optional<int> SummaryTable::server_stop() const {
  if (!tracks_aggregating_) return std::nullopt;
  for (int t = 0; t < rounds_; ++t)
    if (aggregated_[static_cast<std::size_t>(t)] < runs_) return t;
  return std::nullopt;
}

std::string SummaryTable::csv(const std::string& delta, const std::string& extra_columns) const {
  const bool spread = !epsilon_median_.empty();
  std::string out = std::string("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,") +
                    (spread ? "epsilon_median,epsilon_p90," : "") + "delta,delta_times_n,n" +
                    extra_columns + (tracks_aggregating_ ? ",aggregating\n" : "\n");
  for (int t = 0; t <= rounds_; ++t) {
    const auto [mr, sr] = summary_mean_se(regret_[t], per_run_, se_over_pairs_);
    const auto [mb, sb] = summary_mean_se(best_f_[t], per_run_, se_over_pairs_);
    std::vector<double> extra;
    for (const auto& e : extra_epsilon_) extra.push_back(e[t]);
    const std::string eps =
        spread ? fmt::format("{},{},{}", epsilon_[t], epsilon_median_[t], epsilon_p90_[t])
               : fmt::format("{}", epsilon_[t]);
    out += fmt::format("{},{},{},{},{},{},{},{},{}{}", t, csv_number(mr), csv_number(sr),
                       csv_number(mb), csv_number(sb), eps, delta, delta_times_n_,
                       best_f_[t].size(), join_prefixed(extra));
    if (tracks_aggregating_) {  // round T has no server round: an empty cell
      out += ',';
      if (t < rounds_ && runs_ > 0)
        out += fmt::format("{}",
                           static_cast<double>(aggregated_[static_cast<std::size_t>(t)]) / runs_);
    }
    out += '\n';
  }
  return out;
}

void SummaryTable::fill(ExperimentSummary& out) const {
  const auto [mr, sr] = summary_mean_se(regret_[rounds_], per_run_, se_over_pairs_);
  const auto [mb, sb] = summary_mean_se(best_f_[rounds_], per_run_, se_over_pairs_);
  out.final_mean_regret = mr;
  out.final_se_regret = sr;
  out.final_mean_best_f = mb;
  out.final_se_best_f = sb;
  out.epsilon = epsilon_[rounds_];  // everything released, the final release included
  out.fallbacks += fallbacks_;
  out.clipped_fraction = messages_ > 0 ? static_cast<double>(clipped_) / messages_ : 0.0;
  out.server_stop = server_stop();
}

}  // namespace fbosim::run

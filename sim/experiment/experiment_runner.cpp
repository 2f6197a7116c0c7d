#include "sim/experiment/experiment_runner.hpp"

#include <unistd.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "sim/core/thread_pool.hpp"
#include "sim/experiment/atomic_file.hpp"
#include "sim/experiment/interrupt.hpp"
#include "sim/experiment/run_engine.hpp"

namespace fbosim::sim {

namespace {

using Clock = std::chrono::steady_clock;

// Mean and standard error of the finite entries of a set of values.
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

std::string csv_number(double x) { return std::isfinite(x) ? fmt::format("{}", x) : ""; }

class ProgressLine {
 public:
  ProgressLine(bool enabled, int runs) : enabled_(enabled), runs_(runs), tty_(isatty(2)) {}
  void update(int run, int round, int rounds) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (elapsed < 1.0) return;
    const bool run_done = round == rounds;
    if (!tty_ && !run_done) return;  // plain lines, one per finished run
    const double frac = (run + (round + 1.0) / (rounds + 1.0)) / runs_;
    const double eta = frac > 0 ? elapsed * (1 - frac) / frac : 0;
    std::fprintf(stderr, "%srun %d/%d round %d/%d  %.0f%%  %.1fs elapsed, ETA %.1fs%s",
                 tty_ ? "\r" : "", run + 1, runs_, round, rounds, 100 * frac, elapsed, eta,
                 tty_ ? "   " : "\n");
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_;
  int runs_;
  bool tty_;
  bool shown_ = false;
  Clock::time_point start_ = Clock::now();
};

// ",a,b,c" (empty for no values).
std::string join_prefixed(const std::vector<double>& values) {
  std::string out;
  for (double v : values) out += fmt::format(",{}", v);
  return out;
}

}  // namespace

ExperimentSummary run_experiment(const ExperimentSpec& spec, const YAML::Node& resolved,
                                 const RunOptions& options) {
  const auto t0 = Clock::now();
  ExperimentSummary out;
  out.out_dir = options.out_dir.empty() ? "results/" + spec.name : options.out_dir;
  out.runs = spec.runs;
  out.rounds = spec.rounds;
  out.agents = spec.agents;
  // The engine loads real data first: a missing file fails before anything is created.
  core::ThreadPool pool(options.threads);
  const RunEngine engine(spec, pool);
  std::error_code ec;
  std::filesystem::create_directories(out.out_dir, ec);
  if (ec)
    throw std::runtime_error("cannot create output directory " + out.out_dir + ": " + ec.message());

  AtomicFile trace(out.out_dir + "/trace.csv");
  AtomicFile server(out.out_dir + "/server.csv");
  std::string extra_columns;  // ",epsilon_<name>" per server.accountants
  for (const std::string& a : spec.server.accountants) extra_columns += ",epsilon_" + a;
  server.write("run,round,time,received,selected,clipped,noise_std,epsilon" + extra_columns + "\n");
  ProgressLine progress(options.progress, spec.runs);
  // per round: values over (run, agent)
  std::vector<std::vector<double>> regret(spec.rounds + 1), best_f(spec.rounds + 1);
  std::vector<double> epsilon;
  std::vector<std::vector<double>> extra_epsilon;
  long long messages = 0, clipped = 0;
  for (int r = 0; r < spec.runs; ++r) {
    const RunResult res = engine.run(r, [&](int t, int rounds) {
      progress.update(r, t, rounds);
      check_interrupt();
    });
    if (r == 0) {  // the input dimension is known once the objectives exist
      std::string header = "run,agent,round";
      for (int k = 0; k < res.dim; ++k) header += fmt::format(",x{}", k);
      trace.write(header + ",y,f,best_f,regret,source\n");
    }
    trace.write(res.trace_csv);
    std::string rows;
    for (const ServerRow& s : res.server)
      rows += fmt::format("{},{},{},{},{},{},{},{}{}\n", r, s.round, s.time, s.received, s.selected,
                          s.clipped, s.noise_std, s.epsilon, join_prefixed(s.extra_epsilon));
    server.write(rows);
    for (int t = 0; t <= spec.rounds; ++t) {
      for (Eigen::Index n = 0; n < res.best_f.cols(); ++n) {
        best_f[t].push_back(res.best_f(t, n));
        regret[t].push_back(res.regret(t, n));
      }
    }
    epsilon = res.epsilon;
    extra_epsilon = res.extra_epsilon;
    messages += res.messages;
    clipped += res.clipped;
    out.fallbacks += res.fallbacks;
  }

  AtomicFile summary(out.out_dir + "/summary.csv");
  summary.write("round,mean_regret,se_regret,mean_best_f,se_best_f,epsilon,n" + extra_columns +
                "\n");
  for (int t = 0; t <= spec.rounds; ++t) {
    const auto [mr, sr] = mean_se(regret[t]);
    const auto [mb, sb] = mean_se(best_f[t]);
    std::vector<double> extra;
    for (const auto& e : extra_epsilon) extra.push_back(e[t]);
    summary.write(fmt::format("{},{},{},{},{},{},{}{}\n", t, csv_number(mr), csv_number(sr),
                              csv_number(mb), csv_number(sb), epsilon[t], best_f[t].size(),
                              join_prefixed(extra)));
    if (t == spec.rounds) {
      out.final_mean_regret = mr;
      out.final_se_regret = sr;
      out.final_mean_best_f = mb;
      out.final_se_best_f = sb;
      out.epsilon = epsilon[t];
    }
  }
  AtomicFile config(out.out_dir + "/config.resolved.yaml");
  YAML::Emitter yaml;
  yaml << resolved;
  config.write(std::string(yaml.c_str()) + "\n");

  trace.commit();
  server.commit();
  summary.commit();
  config.commit();
  out.clipped_fraction = messages > 0 ? static_cast<double>(clipped) / messages : 0.0;
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

}  // namespace fbosim::sim

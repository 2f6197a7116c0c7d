#include "sim/run/clip_pilot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "algorithms/protocol/mechanism.hpp"
#include "algorithms/systems/fts_de_system.hpp"
#include "core/thread_pool.hpp"
#include "sim/run/run_engine.hpp"

namespace fbosim::run {

namespace {

double finite_or_inf(double x) {
  return std::isnan(x) ? std::numeric_limits<double>::infinity() : x;
}

struct NormLog {
  std::mutex mutex;
  std::vector<double> norms;
};

// The server of the pilot: records every message's norm, then releases as the inner one does.
class NormRecorder final : public protocol::Mechanism {
 public:
  NormRecorder(std::unique_ptr<const protocol::Mechanism> inner, int features,
               std::shared_ptr<NormLog> log)
      : inner_(std::move(inner)), features_(features), log_(std::move(log)) {}

  protocol::Release release(const protocol::Inbox& messages, int round,
                            core::RngStream& rng) const override {
    {
      const std::lock_guard<std::mutex> lock(log_->mutex);
      for (std::size_t n = 0; n < messages.size(); ++n)
        if (messages[n])
          log_->norms.push_back(
              protocol::sample_of(*messages[n], static_cast<int>(n), features_).norm());
    }
    return inner_->release(messages, round, rng);
  }
  privacy::DpEvent event(int population) const override { return inner_->event(population); }

 private:
  std::unique_ptr<const protocol::Mechanism> inner_;
  int features_;
  std::shared_ptr<NormLog> log_;
};

// The algorithm of the pilot: the inner one, its server wrapped in a NormRecorder.
class PilotAlgorithm final : public protocol::Algorithm {
 public:
  PilotAlgorithm(std::shared_ptr<const protocol::Algorithm> inner, int features,
                 std::shared_ptr<NormLog> log)
      : inner_(std::move(inner)), features_(features), log_(std::move(log)) {}

  std::string name() const override { return inner_->name(); }
  protocol::RunParts build(const protocol::RunInputs& in) const override {
    protocol::RunParts parts = inner_->build(in);
    if (parts.server)
      parts.server = std::make_unique<NormRecorder>(std::move(parts.server), features_, log_);
    return parts;
  }
  std::optional<protocol::HistoryRequest> history_request() const override {
    return inner_->history_request();
  }
  std::vector<privacy::DpEvent> possible_events(int agents) const override {
    return inner_->possible_events(agents);
  }
  std::vector<privacy::DpEvent> run_events(int agents, int rounds) const override {
    return inner_->run_events(agents, rounds);
  }
  protocol::PrivacyPlan privacy_plan(int agents) const override {
    return inner_->privacy_plan(agents);
  }
  std::vector<protocol::StatColumn> server_columns() const override {
    return inner_->server_columns();
  }

 private:
  std::shared_ptr<const protocol::Algorithm> inner_;
  int features_;
  std::shared_ptr<NormLog> log_;
};

}  // namespace

double unclipped_quantile(std::vector<double> norms, double gamma) {
  if (norms.empty()) throw std::invalid_argument("no message norms to take a quantile of");
  if (!(gamma > 0 && gamma <= 1))
    throw std::invalid_argument(fmt::format("the quantile must be in (0, 1], got {}", gamma));
  for (double& x : norms) x = finite_or_inf(x);
  const auto n = static_cast<double>(norms.size());
  // k = ceil(gamma n) - 1 (0-based); the product is rounded first so that gamma = 0.9 of 10
  // norms is the 9th, not the 10th, for gamma n = 9.000000000000002.
  const double k = std::ceil(std::nextafter(gamma * n, 0.0)) - 1;
  const auto index = static_cast<std::size_t>(std::clamp(k, 0.0, n - 1));
  std::nth_element(norms.begin(), norms.begin() + static_cast<std::ptrdiff_t>(index), norms.end());
  return norms[index];
}

double clipped_fraction(const std::vector<double>& norms, double bound) {
  if (norms.empty()) return 0;
  const auto above = std::count_if(norms.begin(), norms.end(),
                                   [bound](double x) { return finite_or_inf(x) > bound; });
  return static_cast<double>(above) / static_cast<double>(norms.size());
}

std::string clipping_warning(const config::ExperimentSpec& spec, double fraction) {
  const systems::FtsDeConfig* c = systems::fts_de_config(spec.system.get());
  if (!c || !c->server || !c->dp || c->mechanism.clipping != server::Clipping::fixed ||
      !(fraction > kClippedWarning))
    return "";
  return fmt::format(
      "{:.1f}% of the messages were clipped to server.clip_norm = {:g} (more than {:g}%: the "
      "aggregate is biased towards 0; S = 11 is the DP-FTS-DE paper's for its synthetic "
      "functions): choose S for this objective with `fbosim calibrate-clip CONFIG`, or set "
      "server.clipping: adaptive",
      100 * fraction, c->mechanism.clip_norm, 100 * kClippedWarning);
}

ClipPilot run_clip_pilot(const config::ExperimentSpec& spec, int rounds, int runs, int threads) {
  const systems::FtsDeConfig* fts = systems::fts_de_config(spec.system.get());
  if (!fts || !fts->server)
    throw std::invalid_argument(
        fmt::format("algorithm {} has no clip norm: a clip norm is the DP-FTS-DE family's (dp_fts, "
                    "dp_fts_de)",
                    spec.algorithm));
  systems::FtsDeConfig c = *fts;
  c.dp = false;  // the pilot: every message reaches the aggregate as sent
  c.stop = {};   // and the server aggregates every round
  auto log = std::make_shared<NormLog>();
  config::ExperimentSpec pilot = spec;
  pilot.rounds = rounds;
  pilot.runs = runs;
  pilot.system =
      std::make_shared<PilotAlgorithm>(std::make_shared<systems::FtsDeSystem>(c), c.features, log);
  core::ThreadPool pool(threads);
  const RunEngine engine(pilot, pool);
  for (int r = 0; r < runs; ++r) (void)engine.run(r);
  return {std::move(log->norms), c.subregions};
}

}  // namespace fbosim::run

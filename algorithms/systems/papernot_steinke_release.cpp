#include "algorithms/systems/papernot_steinke_release.hpp"

#include <limits>

#include "algorithms/systems/dp_bo_config.hpp"
#include "algorithms/systems/release_audits.hpp"

namespace fbosim::systems {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

PapernotSteinkeRelease::PapernotSteinkeRelease(const DpBoConfig& c)
    : epsilon_(c.epsilon), delta_(c.delta), selection_(c.selection) {
  selection_.base_epsilon = release::calibrate_base_epsilon("rdp", c.epsilon, c.delta,
                                                            c.selection.mean, c.selection.shape);
  (void)release::private_selection_event(selection_);
}

std::vector<privacy::DpEvent> PapernotSteinkeRelease::agent_events() const {
  return {release::private_selection_event(selection_)};
}

void PapernotSteinkeRelease::release(const TunedAgent& agent, const protocol::ReleaseInputs& in,
                                     protocol::FinalRelease& out) const {
  const Eigen::MatrixXd& L = *agent.candidates;
  core::RngStream rng = in.streams->stream("release", agent.stream, 0);
  const release::PrivateSelection sel = release::private_selection(
      L.rows(), selection_,
      [&](Eigen::Index i, core::RngStream& r) {
        return in.query(agent.agent, Eigen::VectorXd(L.row(i).transpose()), r).y;
      },
      rng);
  protocol::ReleaseRow h;
  if (sel.best >= 0) {
    h = candidate_row(agent, in, sel.best, "hyperparameter", "papernot_steinke");
  } else {  // K = 0 (Poisson): nothing released
    h.agent = agent.agent;
    h.quantity = "hyperparameter";
    h.mechanism = "papernot_steinke";
    h.value = kNaN;
  }
  h.epsilon = epsilon_;
  h.delta = delta_;
  h.sensitivity = selection_.sensitivity;
  h.nonprivate = static_cast<double>(agent.mean_best);
  h.evaluations = sel.repetitions;
  protocol::ReleaseRow v;
  v.agent = agent.agent;
  v.quantity = "best_value";
  v.mechanism = "papernot_steinke";
  v.epsilon = epsilon_;
  v.delta = delta_;
  v.sensitivity = selection_.sensitivity;
  v.value = sel.best >= 0 ? sel.noisy_score : kNaN;
  v.nonprivate = agent.y_best;
  if (sel.best >= 0) v.f = h.f;  // the truth of the released candidate's score
  out.rows.push_back(h);
  out.rows.push_back(v);
  out.events.push_back(release::private_selection_event(selection_));
}

std::vector<std::unique_ptr<const protocol::AuditableRelease>> PapernotSteinkeRelease::auditable(
    const TunedAgent& agent, double noise_scale) const {
  std::vector<std::unique_ptr<const protocol::AuditableRelease>> out;
  out.push_back(std::make_unique<const SelectionReleaseAudit>(agent.candidates->rows(), selection_,
                                                              noise_scale));
  return out;
}

}  // namespace fbosim::systems

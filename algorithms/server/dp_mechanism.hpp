#pragma once
// The privatised server of DP-FTS-DE (Algo. 1 lines 5-13; spec dp-fts-de.md section 3):
//   1. subsample: each agent with probability q (Poisson) or exactly floor(N q) agents without
//      replacement (fixed-size, Fig. 11);
//   2. clip every selected omega_n to L2 norm S / sqrt(P);
//   3. omega^(i) = (1/q) sum_{n selected} w_n^(i) clip(omega_n);
//   4. add N(0, (z w_max S / q)^2) to every coordinate of every omega^(i).
// w_max is the largest weight over all (i, n) by default (the paper's, conservative) or per
// sub-region (the authors' code) [choice: `server.w_max`]. An empty selection still releases
// the noise [choice]. Missing messages act as unselected agents: dropping out never increases
// an agent's privacy loss, so the accounting of the Poisson step stays valid.
#include "algorithms/server/mechanism.hpp"

namespace fbosim::server {

class DpMechanism final : public Mechanism {
 public:
  struct Options {
    double sampling_rate = 0.25;    ///< q in (0, 1]
    double noise_multiplier = 1.0;  ///< z > 0
    double clip_norm = 11.0;        ///< S > 0
    privacy::Sampling sampling = privacy::Sampling::poisson;
    bool per_region_w_max = false;  ///< false: max over all (i, n)
  };
  DpMechanism(Options options, int features);

  Release release(const Messages& messages, const Eigen::MatrixXd& weights,
                  core::RngStream& rng) const override;

  /// Clip bound of one message: S / sqrt(P).
  static double clip_bound(double clip_norm, int regions);
  /// Scales v in place so that |v| <= bound; returns true if it was clipped.
  static bool clip(Eigen::VectorXd& v, double bound);

 private:
  std::vector<bool> select(std::size_t agents, core::RngStream& rng) const;

  Options options_;
  int features_;
};

}  // namespace fbosim::server

#pragma once
// The options of a privacy audit (privacy_audit.hpp), in a header of their own so that the
// command line (sim/cli/commands.hpp) can hold them without the audit's and the config's headers.

namespace fbosim::audit {

struct AuditOptions {
  int trials = 100000;       ///< per input (D and D'), split half for tau, half to measure
  double confidence = 0.95;  ///< of the Clopper-Pearson bounds
  int threads = 1;
  /// Multiplies the noise of the audited mechanism (not of the claim): < 1 simulates a broken
  /// mechanism, to check that the audit catches it.
  double noise_scale = 1.0;
};

}  // namespace fbosim::audit

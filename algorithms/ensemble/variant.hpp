#pragma once
// The two readings of RGPE and TAF as adapted to federated BO (FTS, Dai, Low & Jaillet 2020,
// sec. 3.2). The paper only says "plug the RFF posteriors into the original algorithms"; the
// authors' released code is the only precise definition and departs from the original papers
// in several ways (each listed with the `authors` variant below).
#include "schema/enum_names.hpp"

namespace fbosim::ensemble {

enum class Variant {
  /// [CODE-FTS] what the FTS authors' code computes: independent per-pair marginal samples in
  /// the RGPE source losses; TAF distance as the Euclidean norm of 1/(n(n-1))-scaled ranking
  /// indicators; TAF improvements from a fresh random draw; the target's predictive variance
  /// includes its observation noise (GPy include_likelihood=True).
  authors,
  /// The original papers: RGPE source losses from joint posterior samples (Feurer, Letham &
  /// Bakshy 2018, eq. 3; BoTorch's RGPE tutorial); TAF dissimilarity = fraction of discordant
  /// pairs and improvement of the predicted mean (Wistuba, Schilling & Schmidt-Thieme 2018);
  /// the target's variance is that of the latent f.
  corrected,
};
/// ensemble.variant's names.
inline constexpr schema::EnumNames<Variant> kVariantNames{{Variant::authors, "authors"},
                                                          {Variant::corrected, "corrected"}};

}  // namespace fbosim::ensemble

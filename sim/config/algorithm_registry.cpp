#include "sim/config/algorithm_registry.hpp"

#include "sim/config/fts_de_reader.hpp"
#include "sim/config/fts_target_reader.hpp"
#include "sim/config/private_bo_reader.hpp"

namespace fbosim::config {

namespace {
const std::vector<std::string> kServerKeys = {"server.noise_multiplier", "server.sampling_rate",
                                              "server.sampling", "rounds", "agents.count"};
const std::vector<std::string> kCuratorKeys = {"curator.epsilon", "curator.delta", "agents.count"};
const std::vector<std::string> kReleaseKeys = {"release.epsilon", "release.delta",
                                               "release.mechanism", "agents.count"};
}  // namespace

const std::vector<AlgorithmEntry>& algorithm_registry() {
  static const std::vector<AlgorithmEntry> entries = {
      {"fts_de", "FTS-DE: distributed exploration, no DP (Dai, Low & Jaillet 2021)", read_fts_de,
       estimate_fts_de, kServerKeys},
      {"ts", "standard Thompson sampling, every agent alone", read_fts_de, estimate_fts_de,
       kServerKeys},
      {"fts", "FTS with a server: P = 1, no DP (Dai, Low & Jaillet 2021, Fig. 2a)", read_fts_de,
       estimate_fts_de, kServerKeys},
      {"dp_fts", "DP-FTS: P = 1 with DP (Dai, Low & Jaillet 2021)", read_fts_de, estimate_fts_de,
       kServerKeys},
      {"dp_fts_de", "DP-FTS-DE (Dai, Low & Jaillet 2021)", read_fts_de, estimate_fts_de,
       kServerKeys},
      {"fts_target", "FTS, Algorithm 1: one target agent and N sources (Dai, Low & Jaillet 2020)",
       read_fts_target, estimate_fts_target},
      {"rgpe",
       "RGPE adapted to FBO: ranking-weighted ensemble of the sources' RFF posteriors "
       "(FTS sec. 3.2; Feurer, Letham & Bakshy 2018)",
       read_fts_target, estimate_fts_target},
      {"taf",
       "TAF adapted to FBO: transfer acquisition function over the sources' RFF "
       "posteriors (FTS sec. 3.2; Wistuba, Schilling & Schmidt-Thieme 2018)",
       read_fts_target, estimate_fts_target},
      {"po_gp_ucb",
       "PO-GP-UCB: a curator releases a random projection of its inputs, a modeler runs GP-UCB "
       "on it (Kharkovskii, Dai & Low 2020)",
       read_po_gp_ucb, estimate_po_gp_ucb, kCuratorKeys},
      {"gp_ucb", "GP-UCB on the curator's inputs themselves, non-private (PO-GP-UCB's baseline)",
       read_po_gp_ucb, estimate_po_gp_ucb, kCuratorKeys},
      {"dp_bo",
       "GP-UCB on a finite candidate set, then a DP release of the best hyperparameter and score "
       "(Kusner et al. 2015; Papernot & Steinke 2022)",
       read_dp_bo, estimate_dp_bo, kReleaseKeys},
  };
  return entries;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> out;
  for (const AlgorithmEntry& e : algorithm_registry()) out.push_back(e.name);
  return out;
}

}  // namespace fbosim::config

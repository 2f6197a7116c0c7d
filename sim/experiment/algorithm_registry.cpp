#include "sim/experiment/algorithm_registry.hpp"

#include "sim/experiment/fts_de_reader.hpp"
#include "sim/experiment/fts_target_reader.hpp"

namespace fbosim::sim {

const std::vector<AlgorithmEntry>& algorithm_registry() {
  static const std::vector<AlgorithmEntry> entries = {
      {"fts_de", "FTS-DE, private when server.dp (default true) (Dai, Low & Jaillet 2021)",
       read_fts_de, estimate_fts_de},
      {"ts", "standard Thompson sampling, every agent alone", read_fts_de, estimate_fts_de},
      {"fts", "FTS with a server: P = 1, no DP (Dai, Low & Jaillet 2021, Fig. 2a)", read_fts_de,
       estimate_fts_de},
      {"dp_fts", "DP-FTS: P = 1 with DP (Dai, Low & Jaillet 2021)", read_fts_de, estimate_fts_de},
      {"dp_fts_de", "DP-FTS-DE (Dai, Low & Jaillet 2021)", read_fts_de, estimate_fts_de},
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
  };
  return entries;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> out;
  for (const AlgorithmEntry& e : algorithm_registry()) out.push_back(e.name);
  return out;
}

}  // namespace fbosim::sim

// Prints what fbosim's numpy / scikit-learn ports compute, for tests/tools/sklearn_reference.py
// to compare with numpy and python3-sklearn. Not a test by itself (no CTest registration).
//   sklearn_probe uint32 SEED COUNT            raw outputs of RandomState(SEED)
//   sklearn_probe uint32-array K1,K2,.. COUNT  of RandomState([K1, K2, ...])
//   sklearn_probe randint SEED LOW HIGH COUNT  randint(LOW, HIGH) COUNT times
//   sklearn_probe permutation SEED N...        permutation(N) for each N, one generator
//   sklearn_probe mode SEED N_DRAWS C1,C2,..   _approximate_mode([C1, ...], N_DRAWS, SEED)
//   sklearn_probe split MATFILE SEED           each landmine field's train/test rows
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/landmine/landmine_data.hpp"
#include "datasets/sklearn/numpy_random_state.hpp"
#include "datasets/sklearn/stratified_split.hpp"

using namespace fbosim::datasets;

namespace {

std::vector<std::int64_t> list(const std::string& s) {
  std::vector<std::int64_t> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoll(item));
  return out;
}

template <class V>
void print(const V& v) {
  for (std::size_t i = 0; i < v.size(); ++i) std::cout << (i ? " " : "") << v[i];
  std::cout << '\n';
}

std::uint32_t seed_of(const char* s) { return static_cast<std::uint32_t>(std::stoull(s)); }

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> a(argv + 1, argv + argc);
  try {
    if (a.size() == 3 && (a[0] == "uint32" || a[0] == "uint32-array")) {
      NumpyRandomState s(0);
      if (a[0] == "uint32") {
        s = NumpyRandomState(seed_of(argv[2]));
      } else {
        std::vector<std::uint32_t> key;
        for (std::int64_t k : list(a[1])) key.push_back(static_cast<std::uint32_t>(k));
        s = NumpyRandomState::from_array(key);
      }
      std::vector<std::uint32_t> out;
      for (long k = 0; k < std::stol(a[2]); ++k) out.push_back(s.next_uint32());
      print(out);
    } else if (a.size() == 5 && a[0] == "randint") {
      NumpyRandomState s(seed_of(argv[2]));
      std::vector<std::int64_t> out;
      for (long k = 0; k < std::stol(a[4]); ++k)
        out.push_back(s.randint(std::stoll(a[2]), std::stoll(a[3])));
      print(out);
    } else if (a.size() >= 3 && a[0] == "permutation") {
      NumpyRandomState s(seed_of(argv[2]));
      for (std::size_t k = 2; k < a.size(); ++k) print(s.permutation(std::stoll(a[k])));
    } else if (a.size() == 4 && a[0] == "mode") {
      NumpyRandomState s(seed_of(argv[2]));
      print(approximate_mode(list(a[3]), std::stoll(a[2]), s));
    } else if (a.size() == 3 && a[0] == "split") {
      const std::vector<LandmineField> fields = load_landmine(a[1]);
      for (const LandmineField& f : fields) {
        const TrainTestIndices t = stratified_train_test_split(f.y, 0.5, seed_of(argv[3]));
        print(t.train);
        print(t.test);
      }
    } else {
      std::cerr << "usage: see the header of tests/datasets/sklearn/sklearn_probe.cpp\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "sklearn_probe: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

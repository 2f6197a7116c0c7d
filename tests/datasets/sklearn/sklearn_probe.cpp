// Prints what fbosim's numpy / scikit-learn ports compute, for tests/tools/sklearn_reference.py
// to compare with numpy and python3-sklearn. Not a test by itself (no CTest registration).
//   sklearn_probe uint32 SEED COUNT            raw outputs of RandomState(SEED)
//   sklearn_probe uint32-array K1,K2,.. COUNT  of RandomState([K1, K2, ...])
//   sklearn_probe randint SEED LOW HIGH COUNT  randint(LOW, HIGH) COUNT times
//   sklearn_probe permutation SEED N...        permutation(N) for each N, one generator
//   sklearn_probe mode SEED N_DRAWS C1,C2,..   _approximate_mode([C1, ...], N_DRAWS, SEED)
//   sklearn_probe split MATFILE SEED           each landmine field's train/test rows
//   sklearn_probe svm MATFILE FIELD X0 X1 ORDER PROB   on the authors' split of FIELD with
//                                              class order ORDER, probability PROB: the final
//                                              model's validation decision values (%.17g),
//                                              then the AUC (the folds from a fixed stream)
//   sklearn_probe svc MATFILE FIELD X0 X1 R    scikit-learn's SVC(probability=True,
//                                              random_state=R) on the authors' split of FIELD:
//                                              P(mine) of the validation rows, then the AUC, with
//                                              sklearn's class order, coupling and CV folds
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "datasets/landmine/landmine_data.hpp"
#include "datasets/landmine/landmine_objective.hpp"
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

// scikit-learn's libsvm draws its Platt folds with std::mt19937 seeded by
// RandomState(random_state).randint(2^31 - 1) (BaseLibSVM.fit) and bounded_rand_int, a Lemire
// multiply-shift with rejection (sklearn/svm/src/newrand/newrand.h), in a forward Fisher-Yates
// over the rows of its problem (svm_binary_svc_probability).
std::vector<int> sklearn_folds(const std::vector<int>& rows, std::uint32_t random_state) {
  NumpyRandomState numpy(random_state);
  std::mt19937 mt(static_cast<std::uint32_t>(numpy.randint(0, 2147483647)));
  const auto bounded = [&](std::uint32_t range) {
    std::uint64_t m = std::uint64_t{mt()} * range;
    if (static_cast<std::uint32_t>(m) < range) {
      const std::uint32_t t = (0U - range) % range;
      while (static_cast<std::uint32_t>(m) < t) m = std::uint64_t{mt()} * range;
    }
    return static_cast<std::uint32_t>(m >> 32);
  };
  std::vector<int> perm = rows;
  const auto l = static_cast<std::uint32_t>(perm.size());
  for (std::uint32_t i = 0; i < l; ++i) std::swap(perm[i], perm[i + bounded(l - i)]);
  return perm;
}

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
    } else if (a.size() == 7 && a[0] == "svm") {
      const std::vector<LandmineField> fields = load_landmine(a[1]);
      const LandmineSplit s = authors_split(fields.at(std::stoul(a[2])));
      SvmOptions o;
      o.class_order = parse_class_order(a[5]);
      o.probability = parse_probability(a[6]);
      fbosim::core::RngStream rng = fbosim::core::RngFactory(0, 0).stream("probe");
      SvmDecisions d;
      const double auc = landmine_auc(s, Eigen::Vector2d(std::stod(a[3]), std::stod(a[4])), o, rng,
                                      SvmEngine::fbosim, &d);
      std::cout.precision(17);
      print(d.validation);
      std::cout << auc << '\n';
    } else if (a.size() == 6 && a[0] == "svc") {
      const std::vector<LandmineField> fields = load_landmine(a[1]);
      const LandmineSplit s = authors_split(fields.at(std::stoul(a[2])));
      const SvmOptions o{5, SvmClassOrder::sklearn, SvmProbability::sklearn};
      const std::vector<int> perm = sklearn_folds(problem_rows(s, o.class_order), seed_of(argv[6]));
      SvmDecisions d;
      const double auc = landmine_auc(s, Eigen::Vector2d(std::stod(a[3]), std::stod(a[4])), o, perm,
                                      SvmEngine::fbosim, &d);
      std::cout.precision(17);
      print(d.mine_probability);
      std::cout << auc << '\n';
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

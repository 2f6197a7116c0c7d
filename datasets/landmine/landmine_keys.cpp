// The landmine family's keys and registry entry.
#include <filesystem>
#include <stdexcept>

#include "datasets/landmine/landmine_objective.hpp"
#include "datasets/missing_data.hpp"
#include "datasets/objective_family_entry.hpp"
#include "schema/group.hpp"
#include "schema/registry.hpp"

namespace fbosim::datasets {

std::string LandmineSpec::default_path(const std::string& data_root) {
  return (std::filesystem::path(data_root) / "landmine" / "LandmineData.mat").string();
}

const schema::Group<LandmineSpec>& landmine_split_keys() {
  using L = LandmineSpec;
  static const auto g =
      schema::Group<L>{}
          .choice("objective.split", &L::split, kLandmineSplitNames,
                  "`landmine`: each field's 50/50 train/validation split. `authors`: the papers' "
                  "authors' split, scikit-learn's train_test_split(test_size=0.5, stratify=y, "
                  "random_state=0) with its row order [code]; `seeded`: a stratified split drawn "
                  "from `objective.split_seed` [choice], to vary the landscapes (tools/claims.py "
                  "pools over splits)")
          .include(split_seed_keys(), &L::split_seed)
          .check([](const L& l, schema::Problems& p) {
            // A seed with the authors' (seedless) split is a mistake, e.g. a pooled study that
            // forgot objective.split=seeded: refused rather than run the same split k times.
            if (l.split != LandmineSplitKind::seeded && l.split_seed != 0)
              p.push_back({"objective.split_seed",
                           "only seeds objective.split: seeded (the authors' split has no seed; "
                           "set objective.split=seeded to vary the split)"});
          });
  return g;
}

const schema::Group<LandmineSpec>& landmine_keys() {
  using L = LandmineSpec;
  using schema::at;
  static const auto g =
      schema::Group<L>{}
          .include(landmine_split_keys())
          .integer("objective.cv_folds", at(&L::svm, &SvmOptions::cv_folds),
                   schema::Range::closed(2, 20),
                   "`landmine`: folds of the cross-validation that fits Platt's sigmoid (libsvm's "
                   "probability option uses 5)")
          .choice("objective.class_order", at(&L::svm, &SvmOptions::class_order),
                  kSvmClassOrderNames,
                  "`landmine`: libsvm's first class. `sklearn`: as scikit-learn's SVC orders it "
                  "(labels sorted: the final model has no-mine first, its rows grouped by class; "
                  "the Platt fold models mine first) [code]; `mine_first`: mine first "
                  "everywhere. The solver's tolerance (1e-3) makes the models differ slightly at "
                  "small C or gamma")
          .choice("objective.probability", at(&L::svm, &SvmOptions::probability),
                  kSvmProbabilityNames,
                  "`landmine`: P(mine) of a validation row. `sklearn`: scikit-learn's "
                  "predict_proba (Platt's sigmoid clipped to [1e-7, 1 - 1e-7], then libsvm's "
                  "pairwise coupling, which returns 1/2 within 0.005 of it) [code]; `sigmoid`: "
                  "Platt's sigmoid itself");
  return g;
}

void register_landmine_family(schema::Registry<ObjectiveFamilyEntry>& registry) {
  ObjectiveFamilyEntry e = make_family_entry<LandmineSpec>(
      "landmine",
      "landmine detection: agent n tunes an RBF SVM's C and gamma on field n, validation AUC "
      "(FTS sec. 5.2, DP-FTS-DE sec. 5)",
      landmine_keys(), LandmineSpec{},
      [](const LandmineSpec& spec, const std::string& root) {
        LandmineSpec l = spec;
        if (l.path.empty()) l.path = LandmineSpec::default_path(root);
        // Missing data names datasets.root, FBOSIM_DATA and the download (issue 28).
        if (auto m = missing_data("landmine", l.path, root)) throw std::runtime_error(*m);
        return std::make_unique<LandmineFamily>(l);
      },
      [](const LandmineSpec&) {
        return ObjectiveShape{core::DomainKind::box, 2, 0, ""};
      });
  e.needs_data = true;
  e.max_agents = 29;  // the fields of LandmineData.mat
  registry.add(std::move(e));
}

}  // namespace fbosim::datasets

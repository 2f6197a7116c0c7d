#pragma once
// Writes small UCI HAR trees in the official layout (the real data set is not on this machine):
//   <dir>/features.txt, activity_labels.txt, {train,test}/{X,y,subject}_{train,test}.txt
// X rows are printed like the official files ("  2.8858451e-001 -2.0294171e-002 ...").
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "datasets/activity/har_data.hpp"
#include "core/rng.hpp"

namespace har_fixture {

namespace fs = std::filesystem;

struct Row {
  int subject;
  int label;  // 1..6, as in the files
  Eigen::VectorXd x;
};

/// A fresh empty directory, removed with everything in it when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& tag)
      : path_(fs::temp_directory_path() /
              ("fbosim_har_" + tag + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/// The official "%.7e" with a three-digit exponent, e.g. 2.8858451e-001.
inline std::string official(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.7e", v);
  std::string s(buf);
  const auto e = s.find('e');
  std::string mant = s.substr(0, e), sign = s.substr(e + 1, 1), digits = s.substr(e + 2);
  while (digits.size() < 3) digits = "0" + digits;
  return mant + "e" + sign + digits;
}

inline void write_split(const fs::path& dir, const std::string& split,
                        const std::vector<Row>& rows) {
  fs::create_directories(dir / split);
  std::ofstream x(dir / split / ("X_" + split + ".txt"));
  std::ofstream y(dir / split / ("y_" + split + ".txt"));
  std::ofstream s(dir / split / ("subject_" + split + ".txt"));
  for (const Row& r : rows) {
    for (Eigen::Index j = 0; j < r.x.size(); ++j) x << (j == 0 ? "  " : " ") << official(r.x[j]);
    x << "\n";
    y << r.label << "\n";
    s << r.subject << "\n";
  }
}

inline void write_tree(const fs::path& dir, const std::vector<Row>& train,
                       const std::vector<Row>& test) {
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "features.txt");
    for (int j = 1; j <= fbosim::datasets::HarData::kFeatures; ++j)
      f << j << " feature-" << j << "()\n";
    std::ofstream a(dir / "activity_labels.txt");
    for (const char* name : {"1 WALKING", "2 WALKING_UPSTAIRS", "3 WALKING_DOWNSTAIRS", "4 SITTING",
                             "5 STANDING", "6 LAYING"})
      a << name << "\n";
  }
  write_split(dir, "train", train);
  write_split(dir, "test", test);
}

/// `per_subject` rows for each subject in `subjects`, labels cycling 1..6, features N(0, 1) plus
/// `separation` on the features of the row's class (written with 8 significant digits).
inline std::vector<Row> make_rows(const std::vector<int>& subjects, int per_subject,
                                  double separation, fbosim::core::RngStream& rng) {
  std::vector<Row> rows;
  const int d = fbosim::datasets::HarData::kFeatures;
  for (int s : subjects)
    for (int i = 0; i < per_subject; ++i) {
      Row r{s, 1 + i % 6, rng.normal_vector(d)};
      // Class k shifts features k, k+6, k+12, ... (a linearly separable mean pattern).
      for (int j = r.label - 1; j < d; j += 6) r.x[j] += separation;
      rows.push_back(std::move(r));
    }
  return rows;
}

}  // namespace har_fixture

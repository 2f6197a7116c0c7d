#include <catch2/catch.hpp>

#include <fstream>
#include <stdexcept>
#include <string>

#include "datasets/activity/har_data.hpp"
#include "har_fixture.hpp"

using Catch::Matchers::Contains;
using fbosim::datasets::HarData;
namespace fs = std::filesystem;

namespace {

// Values with an exact 8-significant-digit decimal form, so the loaded numbers can be compared
// exactly with what was written.
Eigen::VectorXd exact_row(int seed) {
  Eigen::VectorXd x(HarData::kFeatures);
  for (int j = 0; j < x.size(); ++j) x[j] = ((seed * 37 + j * 11) % 257 - 128) / 64.0;
  return x;
}

std::vector<har_fixture::Row> rows(const std::vector<std::pair<int, int>>& subject_label,
                                   int seed0) {
  std::vector<har_fixture::Row> out;
  for (const auto& [s, l] : subject_label) out.push_back({s, l, exact_row(seed0++)});
  return out;
}

// Replaces line `line` (1-based) of a file.
void replace_line(const fs::path& file, int line, const std::string& text) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string s; std::getline(in, s);) lines.push_back(s);
  in.close();
  lines.at(static_cast<std::size_t>(line - 1)) = text;
  std::ofstream out(file);
  for (const auto& s : lines) out << s << "\n";
}

struct Tree {
  har_fixture::TempDir tmp;
  fs::path dir;
  explicit Tree(const std::string& tag) : tmp(tag), dir(tmp.path() / "har" / "UCI HAR Dataset") {
    // Train: subjects 1 and 3; test: subject 2 (HAR splits by subject).
    har_fixture::write_tree(dir, rows({{1, 5}, {1, 1}, {3, 6}, {1, 2}, {3, 3}}, 0),
                            rows({{2, 4}, {2, 1}, {2, 6}}, 100));
  }
};

std::string load_error(const fs::path& dir) {
  try {
    HarData::load(dir);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  FAIL("HarData::load accepted bad input in " << dir);
  return {};
}

}  // namespace

TEST_CASE("HAR loader: train and test pooled in file order, labels 0-based, subjects kept") {
  Tree t("pool");
  const HarData d = HarData::load(t.dir);
  REQUIRE(d.features.rows() == 8);
  REQUIRE(d.features.cols() == 561);
  const Eigen::VectorXi labels = (Eigen::VectorXi(8) << 4, 0, 5, 1, 2, 3, 0, 5).finished();
  const Eigen::VectorXi subjects = (Eigen::VectorXi(8) << 1, 1, 3, 1, 3, 2, 2, 2).finished();
  CHECK(d.labels == labels);
  CHECK(d.subjects == subjects);
  for (int i = 0; i < 5; ++i) CHECK(d.features.row(i).transpose() == exact_row(i));
  for (int i = 0; i < 3; ++i) CHECK(d.features.row(5 + i).transpose() == exact_row(100 + i));
  CHECK(d.subject_ids() == std::vector<int>{1, 2, 3});
  CHECK(d.activity_names.size() == 6);
  CHECK(d.activity_names.front() == "WALKING");
  CHECK(d.activity_names.back() == "LAYING");
}

TEST_CASE("HAR loader reads the official number format and CRLF line ends") {
  Tree t("format");
  // A line as in the official X_train.txt: two leading spaces, 3-digit exponents; CRLF end.
  std::string line = "  2.8858451e-001 -2.0294171e-002";
  for (int j = 2; j < 561; ++j) line += " -1.0000000e+000";
  replace_line(t.dir / "train" / "X_train.txt", 2, line + "\r");
  const HarData d = HarData::load(t.dir);
  CHECK(d.features(1, 0) == 0.28858451);
  CHECK(d.features(1, 1) == -0.020294171);
  CHECK(d.features(1, 560) == -1.0);
}

TEST_CASE("HAR loader: a missing directory or file names the path") {
  Tree t("missing");
  CHECK_THAT(load_error(t.dir / "nope"), Contains("nope") && Contains("missing directory"));
  fs::remove(t.dir / "test" / "y_test.txt");
  CHECK_THAT(load_error(t.dir), Contains("y_test.txt") && Contains("missing file"));
}

TEST_CASE("HAR loader: a row with the wrong column count names file, line and count") {
  Tree t("columns");
  std::string line;
  for (int j = 0; j < 560; ++j) line += " 1.0000000e+000";
  replace_line(t.dir / "train" / "X_train.txt", 4, line);
  CHECK_THAT(load_error(t.dir), Contains("X_train.txt") && Contains("line 4") &&
                                    Contains("expected 561 numbers, found 560"));
}

TEST_CASE("HAR loader: a non-numeric token names file, line and token") {
  Tree t("token");
  std::string line = "  abc";
  for (int j = 1; j < 561; ++j) line += " 1.0000000e+000";
  replace_line(t.dir / "test" / "X_test.txt", 3, line);
  CHECK_THAT(load_error(t.dir), Contains("X_test.txt") && Contains("line 3") && Contains("'abc'"));
  replace_line(t.dir / "test" / "X_test.txt", 3, line.replace(2, 3, "1.0e+000"));
  replace_line(t.dir / "train" / "subject_train.txt", 2, "one");
  CHECK_THAT(load_error(t.dir), Contains("subject_train.txt") && Contains("line 2"));
}

TEST_CASE("HAR loader: X, y and subject files of different lengths are an error") {
  Tree t("counts");
  std::ofstream(t.dir / "train" / "y_train.txt", std::ios::app) << "3\n";
  CHECK_THAT(load_error(t.dir), Contains("line counts differ") && Contains("X_train.txt has 5") &&
                                    Contains("y_train.txt has 6"));
}

TEST_CASE("HAR loader: a label outside 1..6 names file, line and value") {
  Tree t("label");
  replace_line(t.dir / "test" / "y_test.txt", 2, "7");
  CHECK_THAT(load_error(t.dir), Contains("y_test.txt") && Contains("line 2") &&
                                    Contains("label must be in 1..6, got 7"));
  replace_line(t.dir / "test" / "y_test.txt", 2, "0");
  CHECK_THAT(load_error(t.dir), Contains("got 0"));
}

TEST_CASE("HAR loader: features.txt and activity_labels.txt are checked") {
  Tree t("meta");
  replace_line(t.dir / "activity_labels.txt", 3, "9 RUNNING");
  CHECK_THAT(load_error(t.dir), Contains("activity_labels.txt") && Contains("line 3"));
  Tree u("meta2");
  std::ofstream(u.dir / "features.txt", std::ios::app) << "562 extra\n";
  CHECK_THAT(load_error(u.dir), Contains("features.txt") && Contains("expected 561"));
}

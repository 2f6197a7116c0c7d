#include "datasets/activity/har_data.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "datasets/data_checksum.hpp"
#include "core/cancellation.hpp"

namespace fbosim::datasets {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw std::runtime_error("UCI HAR: " + file.string() + ": " + what);
}

[[noreturn]] void fail_line(const fs::path& file, std::size_t line, const std::string& what) {
  fail(file, "line " + std::to_string(line) + ": " + what);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The lines of a text file; trailing empty lines (a final newline) are dropped, an empty line
// before the last non-empty one is an error (it would shift every later row).
std::vector<std::string> read_lines(const fs::path& file) {
  if (!fs::is_regular_file(file)) fail(file, "missing file (expected the official UCI HAR layout)");
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, "cannot open for reading");
  std::vector<std::string> lines;
  core::CancellationPoll<1024> poll;  // the feature files have 10^4 lines of 561 numbers
  for (std::string line; std::getline(in, line);) {
    poll();
    lines.push_back(std::move(line));
  }
  const auto blank = [](const std::string& s) { return std::all_of(s.begin(), s.end(), is_space); };
  while (!lines.empty() && blank(lines.back())) lines.pop_back();
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (blank(lines[i])) fail_line(file, i + 1, "empty line");
  if (lines.empty()) fail(file, "file is empty");
  return lines;
}

// Whitespace-separated tokens of one line.
std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

template <typename T>
T parse(std::string_view tok, const fs::path& file, std::size_t line, const char* kind) {
  T v{};
  const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (ec != std::errc() || end != tok.data() + tok.size())
    fail_line(file, line, "expected " + std::string(kind) + ", got '" + std::string(tok) + "'");
  return v;
}

// A file of one integer per line.
std::vector<int> read_ints(const fs::path& file) {
  const auto lines = read_lines(file);
  std::vector<int> out;
  out.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto t = tokens(lines[i]);
    if (t.size() != 1)
      fail_line(file, i + 1, "expected one integer, found " + std::to_string(t.size()) + " tokens");
    out.push_back(parse<int>(t[0], file, i + 1, "an integer"));
  }
  return out;
}

// X_*.txt: kFeatures numbers per line, stored as rows first, first + 1, ... of x.
void read_features(const fs::path& file, const std::vector<std::string>& lines, Eigen::MatrixXd& x,
                   Eigen::Index first) {
  for (std::size_t i = 0; i < lines.size(); ++i) {
    core::throw_if_cancelled();
    const auto t = tokens(lines[i]);
    if (t.size() != static_cast<std::size_t>(HarData::kFeatures))
      fail_line(file, i + 1,
                "expected " + std::to_string(HarData::kFeatures) + " numbers, found " +
                    std::to_string(t.size()));
    const Eigen::Index r = first + static_cast<Eigen::Index>(i);
    for (int j = 0; j < HarData::kFeatures; ++j) {
      const double v = parse<double>(t[j], file, i + 1, "a number");
      if (!std::isfinite(v))
        fail_line(file, i + 1, "column " + std::to_string(j + 1) + " is not finite");
      x(r, j) = v;
    }
  }
}

}  // namespace

HarData HarData::load(const fs::path& dir) {
  if (!fs::is_directory(dir))
    throw std::runtime_error("UCI HAR: " + dir.string() +
                             ": missing directory (expected '<datasets.root>/har/UCI HAR Dataset'; "
                             "tools/fetch_datasets.sh downloads it)");
  HarData d;
  const auto feature_lines = read_lines(dir / "features.txt");
  if (feature_lines.size() != static_cast<std::size_t>(kFeatures))
    fail(dir / "features.txt", "expected " + std::to_string(kFeatures) + " feature names, found " +
                                   std::to_string(feature_lines.size()));
  const auto label_lines = read_lines(dir / "activity_labels.txt");
  if (label_lines.size() != static_cast<std::size_t>(kClasses))
    fail(dir / "activity_labels.txt", "expected " + std::to_string(kClasses) +
                                          " activities, found " +
                                          std::to_string(label_lines.size()));
  for (std::size_t i = 0; i < label_lines.size(); ++i) {
    const auto t = tokens(label_lines[i]);
    if (t.size() != 2 || parse<int>(t[0], dir / "activity_labels.txt", i + 1, "an integer") !=
                             static_cast<int>(i) + 1)
      fail_line(dir / "activity_labels.txt", i + 1,
                "expected '" + std::to_string(i + 1) + " NAME', got '" + label_lines[i] + "'");
    d.activity_names.emplace_back(t[1]);
  }

  struct Part {
    fs::path x, y, s;
    std::vector<std::string> x_lines;
    std::vector<int> y_values, s_values;
  };
  std::vector<Part> parts;
  for (const std::string split : {"train", "test"}) {
    Part p{dir / split / ("X_" + split + ".txt"),
           dir / split / ("y_" + split + ".txt"),
           dir / split / ("subject_" + split + ".txt"),
           {},
           {},
           {}};
    p.x_lines = read_lines(p.x);
    p.y_values = read_ints(p.y);
    p.s_values = read_ints(p.s);
    const std::size_t n = p.x_lines.size();
    if (p.y_values.size() != n || p.s_values.size() != n)
      fail(dir / split, "line counts differ: " + p.x.filename().string() + " has " +
                            std::to_string(n) + ", " + p.y.filename().string() + " has " +
                            std::to_string(p.y_values.size()) + ", " + p.s.filename().string() +
                            " has " + std::to_string(p.s_values.size()));
    for (std::size_t i = 0; i < n; ++i) {
      if (p.y_values[i] < 1 || p.y_values[i] > kClasses)
        fail_line(p.y, i + 1, "label must be in 1..6, got " + std::to_string(p.y_values[i]));
      if (p.s_values[i] < 1)
        fail_line(p.s, i + 1, "subject must be >= 1, got " + std::to_string(p.s_values[i]));
    }
    parts.push_back(std::move(p));
  }

  Eigen::Index total = 0;
  for (const Part& p : parts) total += static_cast<Eigen::Index>(p.x_lines.size());
  d.features.resize(total, kFeatures);
  d.labels.resize(total);
  d.subjects.resize(total);
  Eigen::Index row = 0;
  for (const Part& p : parts) {
    read_features(p.x, p.x_lines, d.features, row);
    for (std::size_t i = 0; i < p.x_lines.size(); ++i, ++row) {
      d.labels[row] = p.y_values[i] - 1;
      d.subjects[row] = p.s_values[i];
    }
  }
  // UCI publishes no checksum of these files: each is hashed and recorded as unverified
  // (datasets/data_checksum.hpp), so a run's provenance.yaml says which data it read.
  const fs::path root = dir.parent_path().parent_path();
  for (const fs::path& f : {dir / "features.txt", dir / "activity_labels.txt", parts[0].x,
                            parts[0].y, parts[0].s, parts[1].x, parts[1].y, parts[1].s})
    verify_data_file(f.string(), fs::path(f).lexically_relative(root).generic_string());
  return d;
}

std::vector<int> HarData::subject_ids() const {
  std::vector<int> ids(subjects.data(), subjects.data() + subjects.size());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace fbosim::datasets

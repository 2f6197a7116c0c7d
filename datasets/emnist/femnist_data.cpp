#include "datasets/emnist/femnist_data.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "datasets/data_checksum.hpp"
#include "datasets/emnist/idx_file.hpp"

namespace fbosim::datasets {

namespace {

// index,writer_id,label rows of <split>-writers.csv: the writer of every image, checked
// against the labels file.
std::vector<std::string> read_writers(const std::string& path, const IdxFile& labels) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))  // a FIFO would block
    throw std::runtime_error(fmt::format("FEMNIST {}: missing or not a regular file", path));
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("FEMNIST {}: cannot open it", path));
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::string> writer_of(labels.data.size());
  std::size_t rows = 0;
  for (std::size_t lineno = 2; std::getline(in, line); ++lineno) {
    if (line.empty()) continue;
    std::stringstream cells(line);
    std::string index, writer, label;
    std::getline(cells, index, ',');
    std::getline(cells, writer, ',');
    std::getline(cells, label, ',');
    std::size_t i = 0;
    int y = -1;
    try {
      i = std::stoul(index);
      y = std::stoi(label);
    } catch (const std::exception&) {
      throw std::runtime_error(fmt::format(
          "FEMNIST {}:{}: expected index,writer_id,label, got '{}'", path, lineno, line));
    }
    if (i >= writer_of.size() || labels.data[i] != y)
      throw std::runtime_error(
          fmt::format("FEMNIST {}:{}: row does not match the labels file (index {}, label {})",
                      path, lineno, i, y));
    writer_of[i] = writer;
    ++rows;
  }
  if (rows != writer_of.size())
    throw std::runtime_error(
        fmt::format("FEMNIST {}: {} rows for {} images", path, rows, writer_of.size()));
  return writer_of;
}

struct Split {
  IdxFile images, labels;
  std::vector<std::string> writers;
};

Split read_split(const std::filesystem::path& dir, const std::string& split) {
  Split s;
  s.images = read_idx((dir / (split + "-images-idx3-ubyte")).string(), 3);
  s.labels = read_idx((dir / (split + "-labels-idx1-ubyte")).string(), 1);
  if (s.images.dims[0] != s.labels.dims[0] || s.images.dims[1] != 28 || s.images.dims[2] != 28)
    throw std::runtime_error(fmt::format("FEMNIST {}: {} images of {}x{} but {} labels",
                                         dir.string(), s.images.dims[0], s.images.dims[1],
                                         s.images.dims[2], s.labels.dims[0]));
  // Digits are classes 0-9: a corrupt labels file is named here, not blamed on the writers CSV
  // that is checked against it next.
  const std::string labels = (dir / (split + "-labels-idx1-ubyte")).string();
  for (std::size_t i = 0; i < s.labels.data.size(); ++i)
    if (s.labels.data[i] > 9)
      throw std::runtime_error(
          fmt::format("FEMNIST {}: label {} of image {} is not a digit 0-9 (corrupt labels file)",
                      labels, s.labels.data[i], i));
  s.writers = read_writers((dir / (split + "-writers.csv")).string(), s.labels);
  return s;
}

void take(const Split& s, const std::string& writer, WriterDigits::Matrix& x, std::vector<int>& y) {
  std::vector<std::size_t> rows;
  for (std::size_t i = 0; i < s.writers.size(); ++i)
    if (s.writers[i] == writer) rows.push_back(i);
  x.resize(static_cast<Eigen::Index>(rows.size()), 784);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (int p = 0; p < 784; ++p)
      x(static_cast<Eigen::Index>(r), p) =
          static_cast<float>(255 - s.images.data[rows[r] * 784 + static_cast<std::size_t>(p)]) /
          255.0f;
    y.push_back(s.labels.data[rows[r]]);
  }
}

}  // namespace

std::vector<WriterDigits> load_femnist_digits(const std::string& dir_name) {
  const std::filesystem::path dir(dir_name);
  if (!std::filesystem::is_directory(dir))
    throw std::runtime_error(fmt::format(
        "FEMNIST digits {}: missing directory (expected '<datasets.root>/femnist_digits' with the "
        "IDX files and writers CSVs; see tools/fetch_datasets.sh)",
        dir.string()));
  const Split train = read_split(dir, "train"), test = read_split(dir, "test");
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(dir / "writers.csv", ec)) in.open(dir / "writers.csv");
  if (!in)
    throw std::runtime_error(fmt::format("FEMNIST {}/writers.csv: cannot open it", dir_name));
  std::string line;
  std::getline(in, line);
  std::vector<WriterDigits> out;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    WriterDigits w;
    w.writer = line.substr(0, line.find(','));
    take(train, w.writer, w.train_x, w.train_y);
    take(test, w.writer, w.test_x, w.test_y);
    if (!w.train_y.empty() && !w.test_y.empty()) out.push_back(std::move(w));
  }
  if (out.empty())
    throw std::runtime_error(
        fmt::format("FEMNIST {}: no writer has both training and test digits", dir_name));
  // Well-formed files can still hold other pixels or labels than the published ones.
  for (const char* f :
       {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "train-writers.csv",
        "test-images-idx3-ubyte", "test-labels-idx1-ubyte", "test-writers.csv", "writers.csv"})
    verify_data_file((dir / f).string(), std::string("femnist_digits/") + f);
  return out;
}

}  // namespace fbosim::datasets

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "datasets/emnist/emnist_objective.hpp"
#include "datasets/emnist/idx_file.hpp"
#include "tests/data_sets.hpp"

using namespace fbosim::datasets;

namespace {
const std::string kDir = fbosim::testing::data_path("femnist_digits");
const std::vector<WriterDigits>& writers() {
  static const std::vector<WriterDigits> w = load_femnist_digits(kDir);
  return w;
}
std::string temp(const std::string& name, const std::string& bytes) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}
}  // namespace

TEST_CASE("IDX: big-endian header, dimensions and data") {
  // magic 00 00 08 02, dims 2 x 3 (big-endian), 6 bytes of data.
  const std::string bytes(
      "\x00\x00\x08\x02\x00\x00\x00\x02\x00\x00\x00\x03\x01\x02\x03\x04\x05\xff", 18);
  const IdxFile f = read_idx(temp("fbosim_ok.idx", bytes), 2);
  CHECK(f.dims == std::vector<std::uint32_t>{2, 3});
  CHECK(f.data == std::vector<std::uint8_t>{1, 2, 3, 4, 5, 255});
  CHECK_THROWS_WITH(read_idx(temp("fbosim_short.idx", bytes.substr(0, 15)), 2),
                    Catch::Contains("truncated data"));
  CHECK_THROWS_WITH(read_idx(temp("fbosim_magic.idx", bytes), 3), Catch::Contains("bad magic"));
  CHECK_THROWS_WITH(read_idx("/nonexistent/x.idx", 1), Catch::Contains("/nonexistent/x.idx"));
}

TEST_CASE("the shared FEMNIST digits: writers with train and test digits, counts as in the CSV") {
  if (!fbosim::testing::have_data("femnist_digits")) return;
  // Independent count from writers.csv: writer_id,n_train_digits,n_test_digits,...
  std::ifstream csv(kDir + "/writers.csv");
  std::string line;
  std::getline(csv, line);
  std::vector<std::tuple<std::string, std::size_t, std::size_t>> expected;
  while (std::getline(csv, line)) {
    std::stringstream cells(line);
    std::string id, train, test;
    std::getline(cells, id, ',');
    std::getline(cells, train, ',');
    std::getline(cells, test, ',');
    if (std::stoul(train) > 0 && std::stoul(test) > 0)
      expected.emplace_back(id, std::stoul(train), std::stoul(test));
  }
  REQUIRE(writers().size() == expected.size());
  CHECK(writers().size() >= 100);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& w = writers()[i];
    CHECK(w.writer == std::get<0>(expected[i]));
    CHECK(w.train_y.size() == std::get<1>(expected[i]));
    CHECK(w.test_y.size() == std::get<2>(expected[i]));
    CHECK(w.train_x.rows() == static_cast<Eigen::Index>(w.train_y.size()));
    CHECK(w.train_x.minCoeff() >= 0.0f);
    CHECK(w.train_x.maxCoeff() <= 1.0f);
  }
  // Inverted: the background (most pixels) is 0 and ink is near 1.
  CHECK(writers()[0].train_x.mean() < 0.3f);
  CHECK(writers()[0].train_x.maxCoeff() > 0.9f);
}

namespace {
// Images per writer in <split>-writers.csv (index,writer_id,label rows), counted here.
std::map<std::string, std::int64_t> images_per_writer(const std::string& split) {
  std::ifstream csv(kDir + "/" + split + "-writers.csv");
  std::string line;
  std::getline(csv, line);
  std::map<std::string, std::int64_t> count;
  while (std::getline(csv, line)) {
    std::stringstream cells(line);
    std::string index, id;
    std::getline(cells, index, ',');
    std::getline(cells, id, ',');
    ++count[id];
  }
  return count;
}
}  // namespace

TEST_CASE("EMNIST records: each writer's training digits, in writers.csv order") {
  if (!fbosim::testing::have_data("femnist_digits")) return;
  // Agent n: the n-th writer of writers.csv with training and test digits (SOURCE.md: 104 of
  // the 105 have both); its records: its rows of train-writers.csv.
  const auto train = images_per_writer("train"), test = images_per_writer("test");
  std::ifstream csv(kDir + "/writers.csv");
  std::string line;
  std::getline(csv, line);
  std::vector<std::int64_t> expected;
  while (std::getline(csv, line)) {
    const std::string id = line.substr(0, line.find(','));
    if (train.count(id) && test.count(id)) expected.push_back(train.at(id));
  }
  REQUIRE(expected.size() == 104);
  EmnistSpec spec;
  spec.data_dir = kDir;
  const EmnistFamily family(spec);
  REQUIRE(family.max_agents() == 104);
  const std::vector<std::int64_t> r = family.records(104);
  CHECK(r == expected);
  CHECK(*std::min_element(r.begin(), r.end()) > 0);
  CHECK(std::accumulate(r.begin(), r.end(), std::int64_t{0}) == 10596);  // SOURCE.md's count
  CHECK(family.records(10) == std::vector<std::int64_t>(expected.begin(), expected.begin() + 10));
  CHECK_THROWS_WITH(family.records(105), Catch::Contains("104") && Catch::Contains("got 105"));
  CHECK_THROWS_AS(family.records(0), std::invalid_argument);
}

TEST_CASE("a missing FEMNIST directory names the path") {
  CHECK_THROWS_WITH(load_femnist_digits("/nonexistent/femnist"),
                    Catch::Contains("/nonexistent/femnist"));
}

TEST_CASE("the hyperparameter map is linear on [1e-7, 0.02]") {
  CHECK(emnist_hyperparameters(Eigen::Vector3d(0, 0.5, 1))[0] == Approx(1e-7));
  CHECK(emnist_hyperparameters(Eigen::Vector3d(0, 0.5, 1))[1] == Approx((1e-7 + 0.02) / 2));
  CHECK(emnist_hyperparameters(Eigen::Vector3d(0, 0.5, 1))[2] == Approx(0.02));
  CHECK_THROWS_AS(emnist_hyperparameters(Eigen::Vector3d(0, 2, 0)), std::invalid_argument);
}

TEST_CASE("the EMNIST family refuses a CNN too large to train, naming the keys") {
  EmnistSpec spec;
  spec.data_dir = kDir;
  spec.cnn.conv2 = 10000;
  spec.cnn.hidden = 100000;
  CHECK_THROWS_WITH(EmnistFamily(spec), Catch::Contains("objective.conv1/conv2/hidden") &&
                                            Catch::Contains("4/10000/100000"));
}

TEST_CASE("IDX: a header whose sizes disagree with the file fails before allocating") {
  // 0x7fffffff x 28 x 28 images (1.7 TB) claimed by a 2-image file: named, no bad_alloc.
  std::string bytes("\x00\x00\x08\x03\x7f\xff\xff\xff\x00\x00\x00\x1c\x00\x00\x00\x1c", 16);
  bytes += std::string(2 * 784, '\0');
  CHECK_THROWS_WITH(read_idx(temp("fbosim_huge.idx", bytes), 3),
                    Catch::Contains("fbosim_huge.idx") && Catch::Contains("2147483647 x 28 x 28") &&
                        Catch::Contains("1568 bytes"));
  // Trailing bytes after the data are a corrupt header too.
  const std::string extra("\x00\x00\x08\x01\x00\x00\x00\x02\x01\x02\x03", 11);
  CHECK_THROWS_WITH(read_idx(temp("fbosim_extra.idx", extra), 1),
                    Catch::Contains("3 bytes after its header"));
}

#include "datasets/landmine/landmine_data.hpp"

#include <matio.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "datasets/data_checksum.hpp"

namespace fbosim::datasets {

namespace {

struct MatCloser {
  void operator()(mat_t* m) const { Mat_Close(m); }
};
struct VarFreer {
  void operator()(matvar_t* v) const { Mat_VarFree(v); }
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(fmt::format(
      "landmine data {}: {} (expected the MATLAB file of Xue et al. 2007 with 1 x 29 cell arrays "
      "`feature` (n x 9) and `label` (n x 1); tools/fetch_datasets.sh downloads it)",
      path, what));
}

// The double matrix in cell i of `cells`, checked to be rows x cols (cols fixed).
const double* cell_matrix(const std::string& path, matvar_t* cells, std::size_t i, const char* name,
                          std::size_t cols, std::size_t& rows) {
  matvar_t* c = Mat_VarGetCell(cells, static_cast<int>(i));
  if (!c || c->class_type != MAT_C_DOUBLE || c->rank != 2 || !c->data)
    fail(path, fmt::format("{}{{{}}} is not a double matrix", name, i + 1));
  if (c->dims[1] != cols)
    fail(path, fmt::format("{}{{{}}} has {} columns, expected {}", name, i + 1, c->dims[1], cols));
  rows = c->dims[0];
  return static_cast<const double*>(c->data);
}

}  // namespace

std::vector<LandmineField> load_landmine(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) fail(path, "no such file");
  std::unique_ptr<mat_t, MatCloser> mat(Mat_Open(path.c_str(), MAT_ACC_RDONLY));
  if (!mat) fail(path, "not a MATLAB file matio can read");
  std::unique_ptr<matvar_t, VarFreer> features(Mat_VarRead(mat.get(), "feature"));
  std::unique_ptr<matvar_t, VarFreer> labels(Mat_VarRead(mat.get(), "label"));
  if (!features || features->class_type != MAT_C_CELL) fail(path, "no cell array `feature`");
  if (!labels || labels->class_type != MAT_C_CELL) fail(path, "no cell array `label`");
  const std::size_t fields = features->dims[0] * features->dims[1];
  if (fields == 0 || labels->dims[0] * labels->dims[1] != fields)
    fail(path, "`feature` and `label` hold different numbers of fields");
  std::vector<LandmineField> out(fields);
  for (std::size_t i = 0; i < fields; ++i) {
    std::size_t n = 0, m = 0;
    const double* x = cell_matrix(path, features.get(), i, "feature", 9, n);
    const double* y = cell_matrix(path, labels.get(), i, "label", 1, m);
    if (m != n) fail(path, fmt::format("field {}: {} feature rows but {} labels", i + 1, n, m));
    // MATLAB stores column-major, as Eigen does by default.
    out[i].x = Eigen::Map<const Eigen::MatrixXd>(x, static_cast<Eigen::Index>(n), 9);
    out[i].y.resize(n);
    int positives = 0;
    for (std::size_t r = 0; r < n; ++r) {
      if (y[r] != 0 && y[r] != 1)
        fail(path, fmt::format("field {}: label {} of row {} is not 0 or 1", i + 1, y[r], r + 1));
      out[i].y[r] = static_cast<int>(y[r]);
      positives += out[i].y[r];
    }
    if (positives < 2 || positives > static_cast<int>(n) - 2)
      fail(path, fmt::format("field {} has {} mines among {} rows: too few of a class to split",
                             i + 1, positives, n));
  }
  // A well-formed file can still hold other numbers (a flipped byte inside a field).
  verify_data_file(path, "landmine/LandmineData.mat");
  return out;
}

}  // namespace fbosim::datasets

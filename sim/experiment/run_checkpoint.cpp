#include "sim/experiment/run_checkpoint.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/experiment/atomic_file.hpp"

namespace fbosim::sim {

namespace {
namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// fmt's "{}" is the shortest text that reads back to the same double (nan and inf included).
void put(std::string& out, double x) { out += fmt::format(" {}", x); }

bool get(std::istream& in, double& x) {
  std::string word;
  if (!(in >> word)) return false;
  char* end = nullptr;
  x = std::strtod(word.c_str(), &end);
  return end == word.c_str() + word.size();
}

void put_matrix(std::string& out, const char* name, const Eigen::MatrixXd& m) {
  out += fmt::format("{} {} {}", name, m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) put(out, m(i, j));
  out += '\n';
}

bool get_matrix(std::istream& in, const char* name, Eigen::MatrixXd& m) {
  std::string word;
  Eigen::Index rows = -1, cols = -1;
  if (!(in >> word >> rows >> cols) || word != name || rows < 0 || cols < 0) return false;
  m.resize(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j)
      if (!get(in, m(i, j))) return false;
  return true;
}

void put_vector(std::string& out, const std::vector<double>& v) {
  out += fmt::format("vector {}", v.size());
  for (double x : v) put(out, x);
  out += '\n';
}

bool get_vector(std::istream& in, std::vector<double>& v) {
  std::string word;
  std::size_t n = 0;
  if (!(in >> word >> n) || word != "vector") return false;
  v.resize(n);
  for (double& x : v)
    if (!get(in, x)) return false;
  return true;
}
}  // namespace

std::string checkpoint_text(const RunResult& res) {
  std::string out = fmt::format(
      "fbosim-run-checkpoint 3\nrun {} dim {} messages {} clipped {} "
      "fallbacks {}\ncolumns {}",
      res.run, res.dim, res.messages, res.clipped, res.fallbacks, res.server_columns.size());
  for (const std::string& c : res.server_columns) out += " " + c;
  out += fmt::format("\nserver {}\n", res.server.size());
  for (const ServerRow& s : res.server) {
    out += fmt::format("{} {}", s.round, s.time);
    for (const std::string& v : s.stats) out += " " + v;
    put(out, s.epsilon);
    out += ' ';
    put_vector(out, s.extra_epsilon);
  }
  put_matrix(out, "best_f", res.best_f);
  put_matrix(out, "regret", res.regret);
  put_vector(out, res.epsilon);
  put(out, res.final_epsilon);
  put(out, res.setup_seconds);
  put(out, res.history_seconds);
  out += '\n';
  put_vector(out, res.round_seconds);
  out += fmt::format("extra {}\n", res.extra_epsilon.size());
  for (const auto& e : res.extra_epsilon) put_vector(out, e);
  out += fmt::format("trace {}\n", res.trace_csv.size());
  out += res.trace_csv;
  out += fmt::format("\nrelease {}\n", res.release_csv.size());
  out += res.release_csv;
  out += "\nend\n";
  return out;
}

std::optional<RunResult> parse_checkpoint(const std::string& text) {
  std::istringstream in(text);
  RunResult r;
  std::string w[6];
  std::size_t n = 0;
  if (!(in >> w[0] >> w[1]) || w[0] != "fbosim-run-checkpoint" || w[1] != "3") return {};
  if (!(in >> w[0] >> r.run >> w[1] >> r.dim >> w[2] >> r.messages >> w[3] >> r.clipped >> w[4] >>
        r.fallbacks >> w[5] >> n) ||
      w[0] != "run" || w[1] != "dim" || w[2] != "messages" || w[3] != "clipped" ||
      w[4] != "fallbacks" || w[5] != "columns")
    return {};
  r.server_columns.resize(n);
  for (std::string& c : r.server_columns)
    if (!(in >> c)) return {};
  if (!(in >> w[0] >> n) || w[0] != "server") return {};
  r.server.resize(n);
  for (ServerRow& s : r.server) {
    if (!(in >> s.round >> s.time)) return {};
    s.stats.resize(r.server_columns.size());
    for (std::string& v : s.stats)
      if (!(in >> v)) return {};
    if (!get(in, s.epsilon) || !get_vector(in, s.extra_epsilon)) return {};
  }
  if (!get_matrix(in, "best_f", r.best_f) || !get_matrix(in, "regret", r.regret) ||
      !get_vector(in, r.epsilon) || !get(in, r.final_epsilon) || !get(in, r.setup_seconds) ||
      !get(in, r.history_seconds) || !get_vector(in, r.round_seconds) || !(in >> w[0] >> n) ||
      w[0] != "extra")
    return {};
  r.extra_epsilon.resize(n);
  for (auto& e : r.extra_epsilon)
    if (!get_vector(in, e)) return {};
  if (!(in >> w[0] >> n) || w[0] != "trace" || in.get() != '\n') return {};
  r.trace_csv.resize(n);
  if (!in.read(r.trace_csv.data(), static_cast<std::streamsize>(n))) return {};
  if (!(in >> w[0] >> n) || w[0] != "release" || in.get() != '\n') return {};
  r.release_csv.resize(n);
  if (!in.read(r.release_csv.data(), static_cast<std::streamsize>(n))) return {};
  if (!(in >> w[0]) || w[0] != "end") return {};
  return r;
}

RunCheckpoints::RunCheckpoints(const std::string& out_dir, const std::string& key)
    : dir_(out_dir + "/" + kFolder) {
  const std::string key_path = dir_ + "/key";
  if (fs::exists(dir_) && read_file(key_path) != key) {
    discarded_ = !empty();
    fs::remove_all(dir_);
  }
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("cannot create " + dir_ + ": " + ec.message());
  if (!fs::exists(key_path)) {
    AtomicFile f(key_path);
    f.write(key);
    f.commit();
  }
  // Temporaries of a killed attempt (only where the file system lacks O_TMPFILE).
  for (const auto& e : fs::directory_iterator(dir_))
    if (e.path().extension() == ".tmp") fs::remove(e.path());
}

std::optional<RunResult> RunCheckpoints::load(int run) const {
  const std::string text = read_file(fmt::format("{}/run-{}.ckpt", dir_, run));
  if (text.empty()) return {};
  std::optional<RunResult> r = parse_checkpoint(text);
  if (r && r->run != run) return {};
  return r;
}

void RunCheckpoints::save(const RunResult& res) const {
  AtomicFile f(fmt::format("{}/run-{}.ckpt", dir_, res.run));
  f.write(checkpoint_text(res));
  f.commit();
}

void RunCheckpoints::remove() const {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

bool RunCheckpoints::empty() const {
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".ckpt") return false;
  return true;
}

}  // namespace fbosim::sim

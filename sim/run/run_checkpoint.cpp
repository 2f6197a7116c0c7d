#include "sim/run/run_checkpoint.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "core/sha256.hpp"
#include "sim/output/atomic_file.hpp"

namespace fbosim::run {

namespace {
namespace fs = std::filesystem;

constexpr const char* kMagic = "fbosim-run-checkpoint";

// The content of a regular file ("" for anything else: a FIFO or a device would block or
// never end).
std::string read_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The body being parsed, and how many of its bytes are left: every count read from the file
// is checked against them before anything of that size is allocated (a corrupt or crafted
// count of 10^12 is a malformed checkpoint, not a bad_alloc).
class BodyReader {
 public:
  explicit BodyReader(const std::string& text) : in_(text), size_(text.size()) {}
  std::istringstream& in() { return in_; }
  std::size_t left() {
    const auto at = in_.tellg();
    return at < 0 ? 0 : size_ - static_cast<std::size_t>(at);
  }
  // At least `per_item` bytes per item must remain for n items.
  bool fits(std::size_t n, std::size_t per_item) { return n <= left() / per_item; }

 private:
  std::istringstream in_;
  std::size_t size_;
};

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

bool get_matrix(BodyReader& r, const char* name, Eigen::MatrixXd& m) {
  std::string word;
  std::size_t rows = 0, cols = 0;
  if (!(r.in() >> word >> rows >> cols) || word != name) return false;
  if (cols != 0 && !r.fits(rows, 2 * cols)) return false;  // " x" per entry at least
  if (!r.fits(cols, 2)) return false;
  m.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      if (!get(r.in(), m(i, j))) return false;
  return true;
}

void put_vector(std::string& out, const std::vector<double>& v) {
  out += fmt::format("vector {}", v.size());
  for (double x : v) put(out, x);
  out += '\n';
}

bool get_vector(BodyReader& r, std::vector<double>& v) {
  std::string word;
  std::size_t n = 0;
  if (!(r.in() >> word >> n) || word != "vector" || !r.fits(n, 2)) return false;
  v.resize(n);
  for (double& x : v)
    if (!get(r.in(), x)) return false;
  return true;
}

// A byte string of the given length after "<name> <length>\n".
bool get_bytes(BodyReader& r, const char* name, std::string& s) {
  std::string word;
  std::size_t n = 0;
  if (!(r.in() >> word >> n) || word != name || r.in().get() != '\n' || !r.fits(n, 1)) return false;
  s.resize(n);
  return static_cast<bool>(r.in().read(s.data(), static_cast<std::streamsize>(n)));
}

std::string body_text(const RunResult& res, const std::string& key_digest) {
  std::string out = fmt::format(
      "run {} key {}\ndim {} messages {} clipped {} fallbacks {}\ncolumns {}", res.run, key_digest,
      res.dim, res.messages, res.clipped, res.fallbacks, res.server_columns.size());
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
  // Per-agent ledgers (format 5): agents.csv's columns and rows, summary's spread.
  out += fmt::format("\nagent_columns {}", res.agent_columns.size());
  for (const std::string& c : res.agent_columns) out += " " + c;
  out += '\n';
  put_vector(out, res.epsilon_median);
  put_vector(out, res.epsilon_p90);
  out += fmt::format("agents {}\n", res.agents_csv.size());
  out += res.agents_csv;
  out += "\nend\n";
  return out;
}

// The run after "run R key K" (already checked); false if the rest is malformed.
bool parse_body(BodyReader& b, RunResult& r) {
  std::istream& in = b.in();
  std::string w[5];
  std::size_t n = 0;
  if (!(in >> w[0] >> r.dim >> w[1] >> r.messages >> w[2] >> r.clipped >> w[3] >> r.fallbacks >>
        w[4] >> n) ||
      w[0] != "dim" || w[1] != "messages" || w[2] != "clipped" || w[3] != "fallbacks" ||
      w[4] != "columns" || !b.fits(n, 2))
    return false;
  r.server_columns.resize(n);
  for (std::string& c : r.server_columns)
    if (!(in >> c)) return false;
  if (!(in >> w[0] >> n) || w[0] != "server" || !b.fits(n, 2 * (r.server_columns.size() + 4)))
    return false;
  r.server.resize(n);
  for (ServerRow& s : r.server) {
    if (!(in >> s.round >> s.time)) return false;
    s.stats.resize(r.server_columns.size());
    for (std::string& v : s.stats)
      if (!(in >> v)) return false;
    if (!get(in, s.epsilon) || !get_vector(b, s.extra_epsilon)) return false;
  }
  if (!get_matrix(b, "best_f", r.best_f) || !get_matrix(b, "regret", r.regret) ||
      !get_vector(b, r.epsilon) || !get(in, r.final_epsilon) || !get(in, r.setup_seconds) ||
      !get(in, r.history_seconds) || !get_vector(b, r.round_seconds) || !(in >> w[0] >> n) ||
      w[0] != "extra" || !b.fits(n, 8))
    return false;
  r.extra_epsilon.resize(n);
  for (auto& e : r.extra_epsilon)
    if (!get_vector(b, e)) return false;
  if (!get_bytes(b, "trace", r.trace_csv) || !get_bytes(b, "release", r.release_csv)) return false;
  if (!(in >> w[0] >> n) || w[0] != "agent_columns" || !b.fits(n, 2)) return false;
  r.agent_columns.resize(n);
  for (std::string& c : r.agent_columns)
    if (!(in >> c)) return false;
  if (!get_vector(b, r.epsilon_median) || !get_vector(b, r.epsilon_p90) ||
      !get_bytes(b, "agents", r.agents_csv))
    return false;
  return static_cast<bool>(in >> w[0]) && w[0] == "end" && !(in >> w[1]);
}
}  // namespace

std::string checkpoint_text(const RunResult& res, const std::string& key) {
  const std::string body = body_text(res, core::sha256_hex(key));
  return fmt::format("{} {} bytes {} sha256 {}\n", kMagic, RunCheckpoints::kVersion, body.size(),
                     core::sha256_hex(body)) +
         body;
}

CheckpointRead read_checkpoint(const std::string& text, int run, const std::string& key) {
  const auto fail = [](std::string why) { return CheckpointRead{std::nullopt, std::move(why)}; };
  const std::size_t eol = text.find('\n');
  std::istringstream head(text.substr(0, eol == std::string::npos ? 0 : std::min(eol, 200ul)));
  std::string magic, bytes_word, sha_word, digest;
  long long version = -1;
  std::size_t bytes = 0;
  if (!(head >> magic) || magic != kMagic)
    return fail(text.empty() ? "empty file" : "not an fbosim run checkpoint");
  if (!(head >> version) || version != RunCheckpoints::kVersion)
    return fail(fmt::format("checkpoint format version {}, this build reads version {}",
                            version < 0 ? std::string("unknown") : std::to_string(version),
                            RunCheckpoints::kVersion));
  if (!(head >> bytes_word >> bytes >> sha_word >> digest) || bytes_word != "bytes" ||
      sha_word != "sha256" || digest.size() != 64)
    return fail("malformed header line");
  const std::size_t found = text.size() - eol - 1;
  if (found < bytes)
    return fail(fmt::format("truncated: {} bytes after the header, {} expected", found, bytes));
  if (found > bytes)
    return fail(fmt::format("{} bytes after the header, {} expected", found, bytes));
  const std::string body = text.substr(eol + 1);
  if (core::sha256_hex(body) != digest)
    return fail("its content does not match its SHA-256 (edited or corrupt)");
  BodyReader b(body);
  std::string run_word, key_word, key_digest;
  int owner = -1;
  if (!(b.in() >> run_word >> owner >> key_word >> key_digest) || run_word != "run" ||
      key_word != "key")
    return fail("malformed binding line");
  if (owner != run) return fail(fmt::format("it holds run {}, not run {}", owner, run));
  if (key_digest != core::sha256_hex(key)) return fail("it was made for another config or build");
  RunResult r;
  r.run = owner;
  if (!parse_body(b, r)) return fail("malformed content");
  return {std::move(r), ""};
}

RunCheckpoints::RunCheckpoints(const std::string& out_dir, const std::string& key)
    : dir_(out_dir + "/" + kFolder), key_(key) {
  const std::string key_path = dir_ + "/key";
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(dir_, ec);
  if (fs::exists(st) && !fs::is_directory(st)) {
    // Only fbosim writes here: a link (removed, not its target) or a file is not a checkpoint.
    note_ = fmt::format("removed {}: a {} where fbosim keeps its checkpoints", dir_,
                        fs::is_symlink(st) ? "symbolic link" : "file that is not a directory");
    fs::remove(dir_);
  } else if (fs::exists(st) && read_file(key_path) != key) {
    discarded_ = !empty();
    fs::remove_all(dir_);
  }
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error("cannot create " + dir_ + ": " + ec.message());
  if (read_file(key_path) != key) {
    output::AtomicFile f(key_path);
    f.write(key);
    f.commit();
  }
  // Temporaries of a killed attempt (only where the file system lacks O_TMPFILE).
  for (const auto& e : fs::directory_iterator(dir_))
    if (e.path().extension() == ".tmp") fs::remove_all(e.path());
}

std::string RunCheckpoints::path(int run) const { return fmt::format("{}/run-{}.ckpt", dir_, run); }

CheckpointRead RunCheckpoints::load(int run) const {
  const std::string file = path(run);
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(file, ec);
  if (!fs::exists(st)) return {};
  CheckpointRead r = fs::is_regular_file(st) ? read_checkpoint(read_file(file), run, key_)
                                             : CheckpointRead{std::nullopt, "not a regular file"};
  if (!r.result) fs::remove_all(file, ec);  // so that the run's new checkpoint can take its place
  return r;
}

void RunCheckpoints::save(const RunResult& res) const {
  output::AtomicFile f(path(res.run));
  f.write(checkpoint_text(res, key_));
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

}  // namespace fbosim::run

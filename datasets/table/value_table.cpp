#include "datasets/table/value_table.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"

namespace fbosim::datasets::table {

namespace {

// A field or line as quoted in a message: at most 80 characters, then its length (a 10 MB
// field was echoed whole).
std::string quoted(std::string_view text) {
  if (text.size() <= 80) return std::string(text);
  return fmt::format("{}... ({} characters)", text.substr(0, 77), text.size());
}

// The table file's bytes, read as the config reader reads a config (config_loader.cpp): a
// regular file only (a FIFO or /dev/zero hung the reader), opened without blocking, at most
// kMaxTableBytes.
std::string read_table_text(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw std::runtime_error(
        fmt::format("{}: cannot open the table (objective.table): {}", path, std::strerror(errno)));
  const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    ::close(*f);
    delete f;
  });
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw std::runtime_error(fmt::format(
        "{}: {} (objective.table must name a CSV file)", path,
        S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file (a pipe or a device?)"));
  const auto too_big = [&](const std::string& size) {
    return std::runtime_error(
        fmt::format("{}: {}more than the {} bytes (256 MiB) a table may hold (objective.table)",
                    path, size, kMaxTableBytes));
  };
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxTableBytes)
    throw too_big(fmt::format("{} bytes, ", st.st_size));
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(
          fmt::format("{}: cannot read the table: {}", path, std::strerror(errno)));
    }
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxTableBytes) throw too_big("it grew while read: ");
  }
  // A UTF-8 byte-order mark (Excel's "CSV UTF-8") is no part of the first column's name.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return text;
}

// A CSV file is text: a NUL byte or another control character (but tab and carriage return)
// is refused with its line and column, as the config reader refuses them.
void check_text(const std::string& path, int line, std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\r')
      throw std::runtime_error(fmt::format(
          "{}:{}: {} at character {}: a table is CSV text (no control characters but tab)", path,
          line,
          c == 0 ? std::string("a NUL byte") : fmt::format("the control character 0x{:02x}", c),
          i + 1));
  }
}

// YAML 1.2's core schema's decimal float, the config reader's number syntax (yaml_scalar.cpp):
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?. No hexadecimal (strtod read 0x10 as 16),
// no inf or nan spellings.
bool decimal_syntax(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

bool infinity_or_nan(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.erase(0, 1);
  if (!text.empty() && text[0] == '.') text.erase(0, 1);
  return text == "inf" || text == "infinity" || text == "nan";
}

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string::size_type start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    std::string field = line.substr(start, comma == std::string::npos ? comma : comma - start);
    out.push_back(core::trim(field));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

struct Row {
  long agent;
  std::vector<double> x;
  double y, f;
  int line;
};

struct Header {
  int agent = -1, y = -1, f = -1;
  std::vector<int> x;  // column of x_k
};

Header read_header(const std::string& path, const std::string& line) {
  Header h;
  std::map<int, int> xs;
  const std::vector<std::string> names = split_fields(line);
  for (int c = 0; c < static_cast<int>(names.size()); ++c) {
    const std::string& n = names[static_cast<std::size_t>(c)];
    const auto fail = [&](const std::string& why) {
      throw std::runtime_error(
          fmt::format("{}:1: column {} '{}': {}", path, c + 1, quoted(n), why));
    };
    int* slot = n == "agent" ? &h.agent : n == "y" ? &h.y : n == "f" ? &h.f : nullptr;
    if (slot) {
      if (*slot >= 0) fail("appears twice");
      *slot = c;
      continue;
    }
    char* end = nullptr;
    errno = 0;
    const long k = n.size() > 1 && n[0] == 'x' && n[1] >= '0' && n[1] <= '9'
                       ? std::strtol(n.c_str() + 1, &end, 10)
                       : -1;
    if (k < 0 || errno || *end || k > 10000 || (n.size() > 2 && n[1] == '0'))
      fail("unknown column (expected agent, x0 .. x{d-1}, y and optionally f)");
    if (!xs.emplace(static_cast<int>(k), c).second) fail("appears twice");
  }
  const auto missing = [&](const std::string& what) {
    throw std::runtime_error(
        fmt::format("{}:1: no column '{}' (the header is '{}'; expected "
                    "agent, x0 .. x{{d-1}}, y and optionally f)",
                    path, what, quoted(line)));
  };
  if (h.agent < 0) missing("agent");
  if (h.y < 0) missing("y");
  if (xs.empty()) missing("x0");
  for (int k = 0; k < static_cast<int>(xs.size()); ++k) {
    const auto it = xs.find(k);
    if (it == xs.end()) missing(fmt::format("x{}", k));
    h.x.push_back(it->second);
  }
  return h;
}

double number(const std::string& path, int line, const std::string& column,
              const std::string& text) {
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error(
        fmt::format("{}:{}: column {}: {}, got '{}'", path, line, column, why, quoted(text)));
  };
  if (text.empty()) fail("is empty");
  if (infinity_or_nan(text)) fail("must be a finite number");
  if (!decimal_syntax(text)) fail("is not a number");
  errno = 0;
  const double v = std::strtod(text.c_str(), nullptr);
  if (errno == ERANGE && std::abs(v) > 1) fail("is out of the range of a double");
  // A nonzero number below the smallest double would read as 0: refused, as by the config
  // reader.
  if (v == 0 && text.find_first_of("123456789") < text.find_first_of("eE"))
    fail("is below the smallest double and would read as 0");
  if (!std::isfinite(v)) fail("must be a finite number");
  return v;
}

Row read_row(const std::string& path, int line, const Header& h, const std::string& text,
             std::size_t columns) {
  const std::vector<std::string> fields = split_fields(text);
  if (fields.size() != columns)
    throw std::runtime_error(
        fmt::format("{}:{}: has {} fields, the header {}", path, line, fields.size(), columns));
  Row r;
  r.line = line;
  const double a = number(path, line, "agent", fields[static_cast<std::size_t>(h.agent)]);
  if (a < 0 || a != std::floor(a) || a > 1e6)
    throw std::runtime_error(
        fmt::format("{}:{}: column agent: must be an integer in [0, 1000000], "
                    "got '{}'",
                    path, line, quoted(fields[static_cast<std::size_t>(h.agent)])));
  r.agent = static_cast<long>(a);
  for (std::size_t k = 0; k < h.x.size(); ++k) {
    const std::string name = fmt::format("x{}", k);
    const std::string& t = fields[static_cast<std::size_t>(h.x[k])];
    const double v = number(path, line, name, t);
    if (v < 0 || v > 1)
      throw std::runtime_error(fmt::format(
          "{}:{}: column {}: must be in [0, 1] (inputs are normalised to the unit box; scale "
          "the table's inputs), got '{}'",
          path, line, name, quoted(t)));
    r.x.push_back(v);
  }
  r.y = number(path, line, "y", fields[static_cast<std::size_t>(h.y)]);
  r.f = h.f >= 0 ? number(path, line, "f", fields[static_cast<std::size_t>(h.f)]) : r.y;
  return r;
}

std::string point_text(const std::vector<double>& x) {
  return fmt::format("[{}]", fmt::join(x, ", "));
}

}  // namespace

ValueTable::ValueTable(const std::string& path) : path_(path) {
  const std::string text = read_table_text(path);
  std::size_t at = 0;
  // The next line without its line end (false after the last).
  const auto next_line = [&](std::string& line) {
    if (at >= text.size()) return false;
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    line.assign(text, at, nl - at);
    at = nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  };
  std::string line;
  if (!next_line(line) || line.find_first_not_of(" \t\r") == std::string::npos)
    throw std::runtime_error(path + ":1: no header (expected agent, x0 .. x{d-1}, y[, f])");
  check_text(path, 1, line);
  const Header h = read_header(path, line);
  has_f_ = h.f >= 0;
  const std::size_t columns = split_fields(line).size();
  std::map<long, std::map<std::vector<double>, Row>> by_agent;
  for (int n = 2; next_line(line); ++n) {
    check_text(path, n, line);
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines
    Row r = read_row(path, n, h, line, columns);
    auto& rows = by_agent[r.agent];
    if (const auto it = rows.find(r.x); it != rows.end())
      throw std::runtime_error(fmt::format("{}:{}: agent {} has point {} twice (line {} too)", path,
                                           n, r.agent, point_text(r.x), it->second.line));
    rows.emplace(r.x, std::move(r));
  }
  if (by_agent.empty()) throw std::runtime_error(path + ": the table has no rows");
  const long k = by_agent.rbegin()->first + 1;
  for (long a = 0; a < k; ++a)
    if (!by_agent.count(a))
      throw std::runtime_error(
          fmt::format("{}: agent {} has no rows (agents must be numbered 0 .. {} without gaps)",
                      path, a, k - 1));
  // Agent 0's points in file order make the domain.
  const auto& first = by_agent.at(0);
  std::vector<const Row*> order;
  for (const auto& [x, r] : first) order.push_back(&r);
  std::sort(order.begin(), order.end(),
            [](const Row* a, const Row* b) { return a->line < b->line; });
  const int d = static_cast<int>(h.x.size());
  points_.resize(static_cast<Eigen::Index>(order.size()), d);
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (int j = 0; j < d; ++j)
      points_(static_cast<Eigen::Index>(i), j) = order[i]->x[static_cast<std::size_t>(j)];
    index_.emplace_back(order[i]->x, static_cast<Eigen::Index>(i));
  }
  std::sort(index_.begin(), index_.end());
  for (long a = 0; a < k; ++a) {
    const auto& rows = by_agent.at(a);
    for (const auto& [x, r] : rows)
      if (!first.count(x))
        throw std::runtime_error(fmt::format(
            "{}:{}: agent {} has point {} that agent 0 lacks (every agent must have the same "
            "points: the agents share one search space)",
            path, r.line, a, point_text(x)));
    if (rows.size() != first.size()) {
      for (const Row* r : order)
        if (!rows.count(r->x))
          throw std::runtime_error(fmt::format(
              "{}: agent {} lacks point {} of agent 0 (line {}; every agent must have the same "
              "points: the agents share one search space)",
              path, a, point_text(r->x), r->line));
    }
    Eigen::VectorXd y(points_.rows()), f(points_.rows());
    for (const auto& [x, r] : rows) {
      const Eigen::Index i = find(Eigen::Map<const Eigen::VectorXd>(x.data(), d));
      y[i] = r.y;
      f[i] = r.f;
    }
    y_.push_back(std::move(y));
    f_.push_back(std::move(f));
  }
}

Eigen::Index ValueTable::find(const Eigen::VectorXd& x) const {
  const std::vector<double> key(x.data(), x.data() + x.size());
  const auto it =
      std::lower_bound(index_.begin(), index_.end(), key,
                       [](const auto& e, const std::vector<double>& k) { return e.first < k; });
  return it != index_.end() && it->first == key ? it->second : -1;
}

}  // namespace fbosim::datasets::table

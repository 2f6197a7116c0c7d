#include "sim/output/csv_table.hpp"

#include <fstream>
#include <stdexcept>

namespace fbosim::output {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw std::runtime_error("unclosed quote in CSV line '" + line + "'");
  return fields;
}

CsvTable CsvTable::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  CsvTable t;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty file, expected a header");
  t.header = split_csv_line(line);
  for (int n = 2; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    std::vector<std::string> row = split_csv_line(line);
    if (row.size() != t.header.size())
      throw std::runtime_error(path + ":" + std::to_string(n) + ": " + std::to_string(row.size()) +
                               " fields, the header has " + std::to_string(t.header.size()));
    t.rows.push_back(std::move(row));
  }
  return t;
}

int CsvTable::find(const std::string& name) const {
  for (std::size_t k = 0; k < header.size(); ++k)
    if (header[k] == name) return static_cast<int>(k);
  return -1;
}

int CsvTable::column(const std::string& name, const std::string& source) const {
  const int k = find(name);
  if (k < 0) throw std::runtime_error(source + ": no column '" + name + "'");
  return k;
}

}  // namespace fbosim::output

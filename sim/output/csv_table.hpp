#pragma once
// A small CSV table (RFC 4180 quoting, one record per line) for reading back the outputs the
// simulator wrote (summary.csv, server.csv, sweep.csv): a header and rows of text cells.
#include <string>
#include <vector>

namespace fbosim::output {

/// `text` as one CSV field: quoted (with doubled quotes) when it holds ',', '"' or a newline.
std::string csv_field(const std::string& text);
/// The fields of one CSV line (quotes removed); throws std::runtime_error on an unclosed quote.
std::vector<std::string> split_csv_line(const std::string& line);

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  ///< each padded or checked to header.size()

  /// Reads `path`; throws std::runtime_error naming the path and line when a row has a
  /// different number of fields than the header, or the file cannot be read.
  static CsvTable read(const std::string& path);
  /// The index of column `name`, or -1.
  int find(const std::string& name) const;
  /// The index of column `name`; throws std::runtime_error naming `source` when absent.
  int column(const std::string& name, const std::string& source) const;
};

}  // namespace fbosim::output

#pragma once
// Errors of reading: a bad value of one key (Error, its message complete: where, what, the
// value), and the problems that checks across keys find (Problem: the key to blame and what
// it must be), which a reader turns into Errors with the key's location.
#include <stdexcept>
#include <string>
#include <vector>

namespace fbosim::schema {

class Source;

/// A key with a bad value; what() is the whole message ("config.yaml:3: rounds: must be in
/// [1, 100000], got 0").
class Error : public std::runtime_error {
 public:
  Error(std::string key, const std::string& message)
      : std::runtime_error(message), key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

/// A condition across keys that does not hold: the key to name and what it must be ("must be
/// in [1, agents.count = 6]").
struct Problem {
  std::string key;
  std::string message;
  bool operator==(const Problem&) const = default;
};
using Problems = std::vector<Problem>;

/// A problem found while building from valid keys (e.g. a constructor's std::invalid_argument),
/// with the key to name.
class ProblemError : public std::invalid_argument {
 public:
  explicit ProblemError(Problem problem)
      : std::invalid_argument(problem.message), problem_(std::move(problem)) {}
  const Problem& problem() const { return problem_; }

 private:
  Problem problem_;
};

/// The message of a problem: "<where(key)>: <message>, got <the value as written>".
std::string message_of(const Source& source, const Problem& problem);
/// Throws the Error of the first problem, if any.
void throw_first(const Source& source, const Problems& problems);

}  // namespace fbosim::schema

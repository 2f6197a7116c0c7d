#include "schema/problem.hpp"

#include "schema/source.hpp"

namespace fbosim::schema {

std::string message_of(const Source& source, const Problem& problem) {
  return source.where(problem.key) + ": " + problem.message + ", got " +
         shorten(source.text(problem.key));
}

void throw_first(const Source& source, const Problems& problems) {
  if (!problems.empty()) throw Error(problems.front().key, message_of(source, problems.front()));
}

}  // namespace fbosim::schema

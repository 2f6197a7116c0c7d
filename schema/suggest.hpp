#pragma once
// "Did you mean" for messages about a misspelt key or choice.
#include <string>
#include <vector>

namespace fbosim::schema {

/// The candidate closest to `word` by edit distance (Levenshtein), or "" when none is within
/// a third of the word's length (at least 2 edits).
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);
/// " (did you mean 'X'?)" for closest_match(word, candidates), or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace fbosim::schema

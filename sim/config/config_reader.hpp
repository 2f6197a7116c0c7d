#pragma once
// The error of a bad config, and the helpers of its messages (shared with schema, which
// reads every key: config_loader.cpp).
#include <stdexcept>
#include <string>

#include "schema/suggest.hpp"
#include "schema/value.hpp"

namespace fbosim::config {

/// A configuration error: the message names the file, the key and the bad value.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The "did you mean" of messages (Levenshtein; schema/suggest.hpp).
using schema::closest_match;
using schema::did_you_mean;
/// The shortest text that reads back to a double; a text cut to 60 characters for messages.
using schema::shorten;
using schema::shortest;

}  // namespace fbosim::config

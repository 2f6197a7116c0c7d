#include "algorithms/privacy/dp_event.hpp"

#include <stdexcept>

namespace fbosim::privacy {

std::string to_string(Sampling s) {
  switch (s) {
    case Sampling::poisson:
      return "poisson";
    case Sampling::fixed:
      return "fixed";
  }
  return "?";
}

Sampling parse_sampling(const std::string& s) {
  if (s == "poisson") return Sampling::poisson;
  if (s == "fixed") return Sampling::fixed;
  throw std::invalid_argument("sampling must be one of poisson, fixed; got '" + s + "'");
}

}  // namespace fbosim::privacy

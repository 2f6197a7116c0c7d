#pragma once
// One config key as plain data (KeyDoc: what the catalog, `fbosim keys` and docs/CONFIG.md
// show) and the lens that binds a key to where its value lives in an option struct: a member,
// a path of members (schema::at(&LocalTsOptions::hyper, &gp::SeHyper::lengthscale)), or a
// pair of functions for a value stored in another form (a choice kept as a number).
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "schema/range.hpp"
#include "schema/value.hpp"

namespace fbosim::schema {

enum class Type {
  integer,    ///< int, int64 or uint64
  real,       ///< a finite double
  boolean,    ///< true | false
  text,       ///< any text
  choice,     ///< one of the key's choices (an enum through its EnumNames, or a name)
  text_list,  ///< comma-separated items, each one of the key's choices
  real_list,  ///< a YAML sequence of finite doubles, each in the key's range ([0.1, 0.3])
};
/// "integer", "real", "boolean", "text", "choice", "text list", "real list".
std::string to_string(Type type);

struct KeyDoc {
  std::string path;  ///< dotted: "exploration.weights.start"
  Type type = Type::text;
  bool optional = false;       ///< may stay empty (absent or null: recorded as null)
  std::optional<Range> range;  ///< a number key's bounds (a real list's: of each item)
  /// A choice key's names (a list key's items), in documentation order.
  std::vector<std::string> choices;
  std::string meaning;
  /// A default that is not the member's value ("the config file's stem", "N^-1.1").
  std::string default_note;
  /// When the key changes anything ("server.clipping: adaptive"; empty: always). Given
  /// otherwise with a value other than the one in force, it is refused (Group::applies_when).
  std::string applies_when;
  /// The member's value in the struct documented (a default-constructed one, presets applied),
  /// as the resolved config records it.
  Resolved default_value;
};

/// Where a key's value lives in an S: get and put a T.
template <class S, class T>
class Lens {
 public:
  /// A member of S (implicit: the common case, written bare).
  template <class C>
  requires std::is_same_v<C, S> Lens(T C::*member)  // NOLINT(google-explicit-constructor)
      : get_([member](const S& s) { return s.*member; }),
        put_([member](S& s, const T& v) { s.*member = v; }) {}
  /// A value kept in another form: get derives the key's value, put stores one.
  Lens(std::function<T(const S&)> get, std::function<void(S&, const T&)> put)
      : get_(std::move(get)), put_(std::move(put)) {}

  /// The whole S (a group on a single value, e.g. the shared key agents.init_points).
  static Lens whole() requires std::is_same_v<S, T> {
    return Lens([](const S& s) { return s; }, [](S& s, const T& v) { s = v; });
  }

  T get(const S& s) const { return get_(s); }
  void put(S& s, const T& v) const { put_(s, v); }

 private:
  std::function<T(const S&)> get_;
  std::function<void(S&, const T&)> put_;
};

namespace detail {
template <class S, class T>
std::function<T&(S&)> chain(T S::*member) {
  return [member](S& s) -> T& { return s.*member; };
}
template <class S, class M, class... More>
auto chain(M S::*first, More... more) {
  auto rest = chain(more...);
  using T = std::remove_reference_t<decltype(rest(std::declval<M&>()))>;
  return std::function<T&(S&)>([first, rest](S& s) -> T& { return rest(s.*first); });
}
}  // namespace detail

/// A path of members: at(&LocalTsOptions::hyper, &gp::SeHyper::lengthscale) is
/// options.hyper.lengthscale.
template <class S, class M, class... More>
auto at(M S::*first, More... more) {
  auto ref = detail::chain(first, more...);
  using T = std::remove_reference_t<decltype(ref(std::declval<S&>()))>;
  return Lens<S, T>([ref](const S& s) { return ref(const_cast<S&>(s)); },
                    [ref](S& s, const T& v) { ref(s) = v; });
}

}  // namespace fbosim::schema

#pragma once
// Group<S>: the ordered keys of an option struct S, declared once beside it. A key binds a
// dotted path to a member (a Lens) with its type, range or choices and meaning; its default is
// the member's value in a default-constructed S (the initialiser: no second copy), overridden
// by value with presets. Applying a group to an S reads every key from a Source in order,
// checks type, range and choices (key_reading.hpp) and records the resolved value. Conditions
// across keys are plain code: check() steps in the key order, or an entry's validate function.
//
//   const schema::Group<LocalTsOptions>& local_ts_keys() {
//     static const auto g = schema::Group<LocalTsOptions>{}
//         .choice("local_ts.method", &LocalTsOptions::model, kOwnModelNames, "...")
//         .integer("local_ts.features", &LocalTsOptions::features, Range::closed(1, 1e5), "...")
//         .real("gp.lengthscale", schema::at(&LocalTsOptions::hyper, &gp::SeHyper::lengthscale),
//               Range::above(0), "...");
//     return g;
//   }
#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "schema/enum_names.hpp"
#include "schema/key.hpp"
#include "schema/key_reading.hpp"
#include "schema/problem.hpp"
#include "schema/record.hpp"
#include "schema/source.hpp"

namespace fbosim::schema {

template <class S>
class Group {
 public:
  /// One key, bound to S.
  struct Key {
    KeyDoc doc;  ///< without default_value (docs() fills it from an S)
    /// The choices when they come from a registry, asked at each use (else doc.choices).
    std::function<std::vector<std::string>()> choices;
    std::function<Resolved(const S&)> get;
    /// Reads the key (given: checked and stored; absent: the value stays) and records it.
    std::function<void(S&, const Source&, const KeyDoc&, Record&)> read;
    /// A preset: stores a value given by code, checked like a read.
    std::function<void(S&, const KeyDoc&, const Value&)> set;
    /// Read only when true for the S read so far (null: always).
    std::function<bool(const S&)> when;

    /// doc with the current choices.
    KeyDoc current_doc() const {
      KeyDoc d = doc;
      if (choices) d.choices = choices();
      return d;
    }
  };
  /// Code between keys while reading: derive defaults of later keys (then), or check a
  /// condition across the keys read so far (check).
  struct Step {
    std::function<void(S&)> apply;
    std::function<void(const S&, Problems&)> check;
  };
  using Item = std::variant<Key, Step>;

  // ---- keys ----
  Group& integer(std::string path, Lens<S, int> lens, Range range, std::string meaning) {
    return scalar<int>(Type::integer, std::move(path), std::move(lens), range, std::move(meaning));
  }
  Group& integer(std::string path, Lens<S, std::int64_t> lens, Range range, std::string meaning) {
    return scalar<std::int64_t>(Type::integer, std::move(path), std::move(lens), range,
                                std::move(meaning));
  }
  Group& integer(std::string path, Lens<S, std::uint64_t> lens, Range range, std::string meaning) {
    return scalar<std::uint64_t>(Type::integer, std::move(path), std::move(lens), range,
                                 std::move(meaning));
  }
  /// A finite double in range.
  Group& real(std::string path, Lens<S, double> lens, Range range, std::string meaning) {
    return scalar<double>(Type::real, std::move(path), std::move(lens), range, std::move(meaning));
  }
  /// A finite double in range, or nothing (absent or null; null given clears it).
  Group& real(std::string path, Lens<S, std::optional<double>> lens, Range range,
              std::string meaning) {
    Key k;
    k.doc = make_doc(std::move(path), Type::real, range, std::move(meaning));
    k.doc.optional = true;
    k.get = [lens](const S& s) {
      const std::optional<double> v = lens.get(s);
      return v ? detail::resolved(*v) : detail::resolved_null();
    };
    k.read = [lens](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
      if (src.presence(doc.path) == Source::Presence::null) lens.put(s, std::nullopt);
      if (detail::given(src, doc)) lens.put(s, detail::read_given<double>(src, doc));
      const std::optional<double> v = lens.get(s);
      rec.set(doc.path, v ? detail::resolved(*v) : detail::resolved_null());
    };
    k.set = [lens](S& s, const KeyDoc& doc, const Value& v) {
      lens.put(s, detail::from_value<double>(doc, v));
    };
    return add(std::move(k));
  }
  Group& boolean(std::string path, Lens<S, bool> lens, std::string meaning) {
    return scalar<bool>(Type::boolean, std::move(path), std::move(lens), std::nullopt,
                        std::move(meaning));
  }
  Group& text(std::string path, Lens<S, std::string> lens, std::string meaning) {
    return scalar<std::string>(Type::text, std::move(path), std::move(lens), std::nullopt,
                               std::move(meaning));
  }
  /// One of `names` (an enum, a bool spelled as two words, ...), recorded by name.
  template <class E>
  Group& choice(std::string path, std::type_identity_t<Lens<S, E>> lens, const EnumNames<E>& names,
                std::string meaning) {
    Key k;
    k.doc = make_doc(std::move(path), Type::choice, std::nullopt, std::move(meaning));
    k.doc.choices = names.names();
    std::vector<E> values;
    for (const auto& e : names) values.push_back(e.value);
    k.get = [lens, names](const S& s) { return detail::resolved_text(names.name(lens.get(s))); };
    k.read = [lens, names, values](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
      if (detail::given(src, doc)) lens.put(s, values[detail::read_choice(src, doc)]);
      rec.set(doc.path, detail::resolved_text(names.name(lens.get(s))));
    };
    k.set = [lens, values](S& s, const KeyDoc& doc, const Value& v) {
      lens.put(s, values[detail::choice_from_value(doc, v)]);
    };
    return add(std::move(k));
  }
  /// A text that must be one of `names()` (asked at each use: a registry's names).
  Group& choice(std::string path, Lens<S, std::string> lens,
                std::function<std::vector<std::string>()> names, std::string meaning) {
    return text_choice(std::move(path), std::move(lens), std::move(names), {}, std::move(meaning));
  }
  /// A text that must be one of a fixed list.
  Group& choice(std::string path, Lens<S, std::string> lens, std::vector<std::string> names,
                std::string meaning) {
    return text_choice(std::move(path), std::move(lens), nullptr, std::move(names),
                       std::move(meaning));
  }
  /// Comma-separated items, each one of `items()` (messages call one an `item`: "unknown
  /// accountant 'x'"); recorded as given (or the default's items joined by ",").
  Group& text_list(std::string path, Lens<S, std::vector<std::string>> lens,
                   std::function<std::vector<std::string>()> items, std::string item,
                   std::string meaning) {
    Key k;
    k.doc = make_doc(std::move(path), Type::text_list, std::nullopt, std::move(meaning));
    k.choices = std::move(items);
    k.get = [lens](const S& s) { return detail::resolved_text(join(lens.get(s))); };
    k.read = [lens, item](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
      std::string raw;
      if (detail::given(src, doc)) {
        lens.put(s, detail::read_list(src, doc, item, raw));
      } else {
        raw = join(lens.get(s));
      }
      rec.set(doc.path, detail::resolved_text(raw));
    };
    k.set = [lens](S& s, const KeyDoc& doc, const Value& v) {
      const std::vector<std::string> list =
          detail::split_list(detail::from_value<std::string>(doc, v));
      for (const std::string& i : list)
        if (std::find(doc.choices.begin(), doc.choices.end(), i) == doc.choices.end())
          throw std::logic_error("preset " + doc.path + ": unknown item '" + i + "'");
      lens.put(s, list);
    };
    return add(std::move(k));
  }

  /// A list of finite doubles (a YAML sequence: `[0.1, 0.3]`, `--set key=[0.1,0.3]`), at least
  /// one, each in `item_range`; optional: an empty list is none (absent or null: recorded as
  /// null), so the member's empty default means "not given". Recorded as a flow sequence.
  Group& real_list(std::string path, Lens<S, std::vector<double>> lens, Range item_range,
                   std::string meaning) {
    Key k;
    k.doc = make_doc(std::move(path), Type::real_list, item_range, std::move(meaning));
    k.doc.optional = true;
    k.get = [lens](const S& s) { return detail::resolved(lens.get(s)); };
    k.read = [lens](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
      if (src.presence(doc.path) == Source::Presence::null) lens.put(s, {});
      if (detail::given(src, doc)) lens.put(s, detail::read_given<std::vector<double>>(src, doc));
      rec.set(doc.path, detail::resolved(lens.get(s)));
    };
    k.set = [lens](S& s, const KeyDoc& doc, const Value& v) {
      lens.put(s, detail::from_value<std::vector<double>>(doc, v));
    };
    return add(std::move(k));
  }

  // ---- modifiers of the key declared last ----
  /// Documents a default that is not the member's value (set by the reader, e.g. the file
  /// stem).
  Group& note(std::string default_note) {
    last_key("note").doc.default_note = std::move(default_note);
    return *this;
  }
  /// The key is an alternative to the key at `other` (one length scale or one per dimension):
  /// giving both (with values) is an Error at this key, naming both. Declare `other` after this
  /// key with `.when()` on this one being empty, so that only the one given is read.
  Group& excludes(std::string other) {
    Key& k = last_key("excludes");
    k.read = [read = k.read, other = std::move(other)](S& s, const Source& src, const KeyDoc& doc,
                                                       Record& rec) {
      if (src.presence(doc.path) == Source::Presence::given &&
          src.presence(other) == Source::Presence::given)
        throw Error(doc.path, src.where(doc.path) + ": give either " + doc.path + " or " + other +
                                  ", not both (" + src.where(other) + " is given too), got '" +
                                  shorten(src.text(doc.path)) + "'");
      read(s, src, doc, rec);
    };
    return *this;
  }
  /// The key changes something only when `holds` is true for the S read so far: `condition`
  /// says when in the config's words ("server.clipping: adaptive"), `governor` names the key
  /// that decides it. Where it does not hold, the key is still recorded (config.resolved.yaml
  /// holds every key, so a resolved config re-runs), and a value given that differs from the
  /// one in force is an Error naming the key, its value, the governor's value and the condition,
  /// as a key of another algorithm is refused: a key the configured variant ignores must not
  /// look as if it took effect.
  Group& applies_when(std::string governor, std::function<bool(const S&)> holds,
                      std::string condition) {
    return applies_when(std::vector<std::string>{last_key("applies_when").doc.path},
                        std::move(governor), std::move(holds), std::move(condition));
  }
  /// The same for each key at `paths` (declared before, e.g. by an included group).
  Group& applies_when(const std::vector<std::string>& paths, std::string governor,
                      std::function<bool(const S&)> holds, std::string condition) {
    for (const std::string& path : paths) {
      Key& k = find_key_mutable(path);
      k.doc.applies_when = condition;
      k.read = [read = k.read, get = k.get, governor, holds, condition](
                   S& s, const Source& src, const KeyDoc& doc, Record& rec) {
        if (!holds(s) && src.presence(doc.path) == Source::Presence::given) {
          S trial = s;
          Record scratch;
          read(trial, src, doc, scratch);  // a bad value is refused as such first
          if (!(get(trial) == get(s))) {
            const Resolved* g = rec.find(governor);
            throw Error(doc.path,
                        message_of(src, {doc.path, "changes nothing with " + governor + ": " +
                                                       (g ? g->text : std::string("?")) +
                                                       " (it applies only with " + condition +
                                                       "); leave it out, or set " + condition}));
          }
        }
        read(s, src, doc, rec);
      };
    }
    return *this;
  }
  /// Reads the key only when `pred` holds for the S read so far (else the key is not read, not
  /// recorded, and unknown to the config).
  Group& when(std::function<bool(const S&)> pred) {
    last_key("when").when = std::move(pred);
    return *this;
  }

  // ---- code between keys ----
  /// Runs `step` at this point of a read (e.g. a default of a later key derived from an
  /// earlier one); not run by docs() or presets.
  Group& then(std::function<void(S&)> step) {
    items_.push_back(Step{std::move(step), nullptr});
    return *this;
  }
  /// Checks a condition on the keys read so far; the first problem ends the read with an Error.
  Group& check(std::function<void(const S&, Problems&)> condition) {
    items_.push_back(Step{nullptr, std::move(condition)});
    return *this;
  }

  // ---- composition ----
  /// Every key and step of `sub`, on the T that `lens` reaches inside S.
  template <class T>
  Group& include(const Group<T>& sub, std::type_identity_t<Lens<S, T>> lens) {
    for (const auto& item : sub.items()) {
      if (const auto* k = std::get_if<typename Group<T>::Key>(&item)) {
        Key key;
        key.doc = k->doc;
        key.choices = k->choices;
        key.get = [g = k->get, lens](const S& s) { return g(lens.get(s)); };
        key.read = [r = k->read, lens](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
          T t = lens.get(s);
          r(t, src, doc, rec);
          lens.put(s, t);
        };
        key.set = [set = k->set, lens](S& s, const KeyDoc& doc, const Value& v) {
          T t = lens.get(s);
          set(t, doc, v);
          lens.put(s, t);
        };
        if (k->when) key.when = [w = k->when, lens](const S& s) { return w(lens.get(s)); };
        add(std::move(key));
      } else {
        const auto& st = std::get<typename Group<T>::Step>(item);
        Step step;
        if (st.apply)
          step.apply = [a = st.apply, lens](S& s) {
            T t = lens.get(s);
            a(t);
            lens.put(s, t);
          };
        if (st.check)
          step.check = [c = st.check, lens](const S& s, Problems& p) { c(lens.get(s), p); };
        items_.push_back(std::move(step));
      }
    }
    return *this;
  }
  /// Every key and step of another group of S.
  Group& include(const Group& other) {
    for (const Item& item : other.items_) {
      if (const Key* k = std::get_if<Key>(&item)) {
        add(*k);
      } else {
        items_.push_back(item);
      }
    }
    return *this;
  }
  /// The keys named, in the order named (no steps); throws std::logic_error for a path the
  /// group does not hold.
  Group only(std::initializer_list<std::string_view> paths) const {
    Group out;
    for (const std::string_view p : paths) out.items_.push_back(Item(find_key(p)));
    return out;
  }
  /// Every item but the keys named; throws std::logic_error for a path the group does not hold.
  Group without(std::initializer_list<std::string_view> paths) const {
    for (const std::string_view p : paths) (void)find_key(p);
    Group out;
    for (const Item& item : items_) {
      const Key* k = std::get_if<Key>(&item);
      if (!k || std::find(paths.begin(), paths.end(), k->doc.path) == paths.end())
        out.items_.push_back(item);
    }
    return out;
  }

  // ---- use ----
  /// Reads every key in order into s (steps and checks between), recording each key read.
  /// Throws Error for a bad value or a failed check.
  void read(S& s, const Source& source, Record& record) const {
    for (const Item& item : items_) {
      if (const Key* k = std::get_if<Key>(&item)) {
        if (k->when && !k->when(s)) continue;
        k->read(s, source, k->current_doc(), record);
      } else {
        const Step& st = std::get<Step>(item);
        if (st.apply) st.apply(s);
        if (st.check) {
          Problems problems;
          st.check(s, problems);
          throw_first(source, problems);
        }
      }
    }
  }
  /// A preset: the key at `path` takes `value` (checked like a read); throws std::logic_error
  /// for a path the group does not hold or a value the key refuses.
  void set(S& s, std::string_view path, const Value& value) const {
    const Key& k = find_key(path);
    k.set(s, k.current_doc(), value);
  }
  /// Every key's documentation, its default_value read from `s`.
  std::vector<KeyDoc> docs(const S& s = S{}) const {
    std::vector<KeyDoc> out;
    for (const Item& item : items_)
      if (const Key* k = std::get_if<Key>(&item)) {
        out.push_back(k->current_doc());
        out.back().default_value = k->get(s);
      }
    return out;
  }
  bool has(std::string_view path) const {
    return std::any_of(items_.begin(), items_.end(), [&](const Item& item) {
      const Key* k = std::get_if<Key>(&item);
      return k && k->doc.path == path;
    });
  }
  std::vector<std::string> paths() const {
    std::vector<std::string> out;
    for (const Item& item : items_)
      if (const Key* k = std::get_if<Key>(&item)) out.push_back(k->doc.path);
    return out;
  }
  const std::vector<Item>& items() const { return items_; }

 private:
  static KeyDoc make_doc(std::string path, Type type, std::optional<Range> range,
                         std::string meaning) {
    KeyDoc d;
    d.path = std::move(path);
    d.type = type;
    d.range = range;
    d.meaning = std::move(meaning);
    return d;
  }
  static std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& i : items) out += (out.empty() ? "" : ",") + i;
    return out;
  }

  template <class T>
  Group& scalar(Type type, std::string path, Lens<S, T> lens, std::optional<Range> range,
                std::string meaning) {
    Key k;
    k.doc = make_doc(std::move(path), type, range, std::move(meaning));
    k.get = [lens](const S& s) { return detail::resolved(lens.get(s)); };
    k.read = [lens](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
      if (detail::given(src, doc)) lens.put(s, detail::read_given<T>(src, doc));
      rec.set(doc.path, detail::resolved(lens.get(s)));
    };
    k.set = [lens](S& s, const KeyDoc& doc, const Value& v) {
      lens.put(s, detail::from_value<T>(doc, v));
    };
    return add(std::move(k));
  }

  Group& text_choice(std::string path, Lens<S, std::string> lens,
                     std::function<std::vector<std::string>()> names,
                     std::vector<std::string> fixed, std::string meaning) {
    Key k;
    k.doc = make_doc(std::move(path), Type::choice, std::nullopt, std::move(meaning));
    k.doc.choices = std::move(fixed);
    k.choices = std::move(names);
    k.get = [lens](const S& s) { return detail::resolved_text(lens.get(s)); };
    k.read = [lens](S& s, const Source& src, const KeyDoc& doc, Record& rec) {
      if (detail::given(src, doc)) lens.put(s, doc.choices[detail::read_choice(src, doc)]);
      rec.set(doc.path, detail::resolved_text(lens.get(s)));
    };
    k.set = [lens](S& s, const KeyDoc& doc, const Value& v) {
      lens.put(s, doc.choices[detail::choice_from_value(doc, v)]);
    };
    return add(std::move(k));
  }

  Group& add(Key k) {
    if (k.doc.path.empty()) throw std::logic_error("schema::Group: a key without a path");
    if (has(k.doc.path))
      throw std::logic_error("schema::Group: key '" + k.doc.path + "' declared twice");
    items_.push_back(std::move(k));
    return *this;
  }
  Key& last_key(const char* what) {
    if (items_.empty() || !std::holds_alternative<Key>(items_.back()))
      throw std::logic_error(std::string("schema::Group::") + what + ": no key before it");
    return std::get<Key>(items_.back());
  }
  Key& find_key_mutable(std::string_view path) {
    return const_cast<Key&>(static_cast<const Group&>(*this).find_key(path));
  }
  const Key& find_key(std::string_view path) const {
    for (const Item& item : items_)
      if (const Key* k = std::get_if<Key>(&item); k && k->doc.path == path) return *k;
    throw std::logic_error("schema::Group: no key '" + std::string(path) + "'");
  }

  std::vector<Item> items_;
};

}  // namespace fbosim::schema

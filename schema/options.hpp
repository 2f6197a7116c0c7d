#pragma once
// An option struct of any type together with the group of keys that fills it: what a registry
// entry holds (an algorithm's config, an objective family's settings), so that code that knows
// neither type can apply presets, read the keys, list them, and hand the struct back to the
// entry's own typed code.
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "schema/group.hpp"

namespace fbosim::schema {

/// A preset: a key's value given by code, applied before reading (the key's default for one
/// algorithm or family).
struct Preset {
  std::string path;
  Value value;
};

class Options {
 public:
  /// No struct and no keys.
  Options() = default;
  /// `value` (default: a default-constructed S) with the keys of `group`, which must outlive
  /// the Options (the groups are static: `const Group<S>& x_keys()`).
  template <class S>
  explicit Options(const Group<S>& group, S value = S{})
      : self_(std::make_unique<Model<S>>(group, std::move(value))) {}

  Options(const Options& other) : self_(other.self_ ? other.self_->clone() : nullptr) {}
  Options& operator=(const Options& other) {
    if (this != &other) self_ = other.self_ ? other.self_->clone() : nullptr;
    return *this;
  }
  Options(Options&&) noexcept = default;
  Options& operator=(Options&&) noexcept = default;

  /// Reads every key from source into the struct (Group::read).
  void read(const Source& source, Record& record) {
    if (self_) self_->read(source, record);
  }
  /// A preset (Group::set).
  void set(std::string_view path, const Value& value) {
    if (!self_) throw std::logic_error("schema::Options::set: no keys");
    self_->set(path, value);
  }
  void apply(const std::vector<Preset>& presets) {
    for (const Preset& p : presets) set(p.path, p.value);
  }
  /// Every key, with the struct's current values as defaults.
  std::vector<KeyDoc> docs() const { return self_ ? self_->docs() : std::vector<KeyDoc>{}; }
  bool has(std::string_view path) const { return self_ && self_->has(path); }
  /// Whether it holds a struct (a default-constructed Options holds none).
  bool has_value() const { return self_ != nullptr; }

  /// The struct; throws std::logic_error when it is not an S.
  template <class S>
  const S& as() const {
    return model<S>().value;
  }
  template <class S>
  S& as() {
    return const_cast<S&>(static_cast<const Options&>(*this).as<S>());
  }
  template <class S>
  bool holds() const {
    return self_ && self_->type() == typeid(S);
  }

 private:
  struct Concept {
    virtual ~Concept() = default;
    virtual std::unique_ptr<Concept> clone() const = 0;
    virtual void read(const Source& source, Record& record) = 0;
    virtual void set(std::string_view path, const Value& value) = 0;
    virtual std::vector<KeyDoc> docs() const = 0;
    virtual bool has(std::string_view path) const = 0;
    virtual const std::type_info& type() const = 0;
  };
  template <class S>
  struct Model final : Concept {
    Model(const Group<S>& g, S v) : group(&g), value(std::move(v)) {}
    std::unique_ptr<Concept> clone() const override { return std::make_unique<Model>(*this); }
    void read(const Source& source, Record& record) override { group->read(value, source, record); }
    void set(std::string_view path, const Value& v) override { group->set(value, path, v); }
    std::vector<KeyDoc> docs() const override { return group->docs(value); }
    bool has(std::string_view path) const override { return group->has(path); }
    const std::type_info& type() const override { return typeid(S); }
    const Group<S>* group;
    S value;
  };
  template <class S>
  const Model<S>& model() const {
    if (!holds<S>())
      throw std::logic_error(std::string("schema::Options: not a ") + typeid(S).name());
    return static_cast<const Model<S>&>(*self_);
  }

  std::unique_ptr<Concept> self_;
};

}  // namespace fbosim::schema

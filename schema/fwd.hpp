#pragma once
// Forward declarations, for headers that only declare a `const Group<S>& x_keys()`.
namespace fbosim::schema {
template <class S>
class Group;
template <class Entry>
class Registry;
class Options;
struct Preset;
struct Problem;
}  // namespace fbosim::schema

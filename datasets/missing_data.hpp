#pragma once
// The error for a real-world data set that is not where datasets.root says (issue 28): it names
// the path looked for, datasets.root (and where its value came from: the config or --set, or the
// default $FBOSIM_DATA, else `data`, relative to the current directory), and the command that
// downloads the set (tools/fetch_datasets.sh).
#include <optional>
#include <string>

namespace fbosim::datasets {

/// The message when `expected` (the family's data under `root`) does not exist, else nothing.
/// `family`: landmine, activity or emnist.
std::optional<std::string> missing_data(const std::string& family, const std::string& expected,
                                        const std::string& root);

}  // namespace fbosim::datasets

#pragma once
// The real data sets in the unit tests (landmine, FEMNIST digits): found where fbosim and
// tools/golden.sh find them, and a test whose data is absent is skipped, not failed (issue 43:
// a fresh clone without the data passes its test command, saying what it skipped and how to
// get the data).
#include <string>

namespace fbosim::testing {

// $FBOSIM_DATA when set and not empty (as fbosim's datasets.root default and golden.sh), else
// ../shared/datasets beside the checkout (FBOSIM_SHARED_DIR).
std::string data_root();

// data_root() / relative.
std::string data_path(const std::string& relative);

// Whether data_root() / relative exists. When it does not, prints one line naming it and
// tools/fetch_datasets.sh and marks the running test case skipped: the test executable then
// exits 77 if nothing failed (catch_main.cpp), which CTest reports as skipped
// (SKIP_RETURN_CODE, tests/CMakeLists.txt). Use: if (!have_data("landmine/...")) return;
bool have_data(const std::string& relative);

// Whether have_data() found something missing in this process.
bool skipped_for_data();

}  // namespace fbosim::testing

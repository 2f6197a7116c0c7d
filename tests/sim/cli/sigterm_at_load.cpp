// Preloaded into fbosim (LD_PRELOAD) by signal_cli_test.cpp: sends the process SIGTERM from a
// library constructor, that is while the program starts, before its main runs.
#include <csignal>

namespace {
__attribute__((constructor)) void sigterm_at_load() { std::raise(SIGTERM); }
}  // namespace

#include "sim/experiment/interrupt.hpp"

#include <csignal>

namespace fbosim::sim {

namespace {
volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_signal(int) { g_interrupted = 1; }
}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

bool interrupt_requested() { return g_interrupted != 0; }

void check_interrupt() {
  if (interrupt_requested()) throw Interrupted();
}

}  // namespace fbosim::sim

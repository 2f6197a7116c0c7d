#pragma once
// Cooperative interruption: SIGINT/SIGTERM set a flag that the experiment checks after every
// round, so an interrupted run unwinds normally and its temporary files are removed (no
// half-written CSV is ever left under a final name).
#include <stdexcept>
#include <string>

namespace fbosim::sim {

/// Thrown when an interrupt was requested.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted; no output was written") {}
  explicit Interrupted(const std::string& what) : std::runtime_error(what) {}
};

/// Installs the SIGINT/SIGTERM handlers (idempotent).
void install_interrupt_handlers();
/// True once a handled signal arrived.
bool interrupt_requested();
/// Throws Interrupted if interrupt_requested().
void check_interrupt();

}  // namespace fbosim::sim

// fbosim privacy --q Q --z Z --steps T (--agents N | --delta D) [--format csv]
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "algorithms/privacy/accountant.hpp"
#include "sim/cli/commands.hpp"

namespace fbosim::cli {

namespace {
struct PrivacyArgs {
  double q = 0, z = 0;
  int steps = 0;
  int agents = 0;
  double delta = 0;
  std::string format = "text";
  std::string accountant = "moments";
  std::string sampling = "poisson";
};

void run(const PrivacyArgs& a) {
  if (!(a.q > 0 && a.q <= 1))
    throw std::invalid_argument(fmt::format("--q must be in (0, 1], got {}", a.q));
  if (!(a.z > 0)) throw std::invalid_argument(fmt::format("--z must be > 0, got {}", a.z));
  if (a.steps < 0)
    throw std::invalid_argument(fmt::format("--steps must be >= 0, got {}", a.steps));
  const double delta = a.delta > 0 ? a.delta : std::pow(static_cast<double>(a.agents), -1.1);
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument(fmt::format("delta must be in (0, 1), got {}", delta));
  const auto accountant = privacy::make_accountant(a.accountant);
  privacy::DpEvent event{a.q, a.z, privacy::parse_sampling(a.sampling), a.agents};
  accountant->compose(event, a.steps);
  const privacy::EpsilonResult r = accountant->epsilon(delta);
  if (a.format == "csv") {
    std::printf("accountant,sampling,q,z,steps,delta,epsilon,order\n%s,%s,%s,%s,%d,%s,%s,%s\n",
                a.accountant.c_str(), a.sampling.c_str(), fmt::format("{}", a.q).c_str(),
                fmt::format("{}", a.z).c_str(), a.steps, fmt::format("{}", delta).c_str(),
                fmt::format("{}", r.epsilon).c_str(), fmt::format("{}", r.order).c_str());
  } else {
    std::printf(
        "epsilon = %.4f at delta = %.4g (%s accountant, %s sampling, q = %g, z = %g, "
        "%d steps; optimal order %g)\n",
        r.epsilon, delta, a.accountant.c_str(), a.sampling.c_str(), a.q, a.z, a.steps, r.order);
  }
}
}  // namespace

void add_privacy_command(CLI::App& app) {
  auto args = std::make_shared<PrivacyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "privacy", "Privacy loss epsilon of T rounds of the subsampled Gaussian mechanism");
  cmd->add_option("--q", args->q, "Sampling rate q in (0, 1]")->required();
  cmd->add_option("--z", args->z, "Noise multiplier z > 0")->required();
  cmd->add_option("--steps", args->steps, "Rounds T (the initial round is not counted)")
      ->required();
  auto* agents =
      cmd->add_option("--agents", args->agents, "N: delta = N^-1.1")->check(CLI::PositiveNumber);
  auto* delta = cmd->add_option("--delta", args->delta, "delta in (0, 1)");
  agents->excludes(delta);
  delta->excludes(agents);
  cmd->add_option("--accountant", args->accountant, "Accountant")->default_str("moments");
  cmd->add_option("--sampling", args->sampling, "poisson or fixed")->default_str("poisson");
  cmd->add_option("--format", args->format, "text or csv")
      ->check(CLI::IsMember({"text", "csv"}))
      ->default_str("text");
  cmd->callback([args, agents, delta] {
    if (agents->count() == 0 && delta->count() == 0)
      throw std::invalid_argument("give --agents N (delta = N^-1.1) or --delta D");
    run(*args);
  });
}

}  // namespace fbosim::cli

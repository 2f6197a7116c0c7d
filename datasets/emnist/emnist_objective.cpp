#include "datasets/emnist/emnist_objective.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "datasets/emnist/small_cnn.hpp"
#include "datasets/score_objective.hpp"

namespace fbosim::datasets {

namespace {

class EmnistObjective final : public ScoreObjective {
 public:
  EmnistObjective(std::shared_ptr<const WriterDigits> w, CnnOptions o, int agent)
      : ScoreObjective(3, "emnist.evaluate", agent), writer_(std::move(w)), cnn_(o) {}

 protected:
  double score(const Eigen::VectorXd& x, core::RngStream& rng) const override {
    const Eigen::Vector3d h = emnist_hyperparameters(x);
    return cnn_accuracy(*writer_, cnn_, h[0], h[1], h[2], rng.engine()());
  }

 private:
  std::shared_ptr<const WriterDigits> writer_;
  CnnOptions cnn_;
};

}  // namespace

Eigen::Vector3d emnist_hyperparameters(const Eigen::VectorXd& x) {
  if (x.size() != 3 || !(x.array() >= 0).all() || !(x.array() <= 1).all())
    throw std::invalid_argument(fmt::format("emnist: x must be a point of [0,1]^3, got [{}]",
                                            fmt::join(x.data(), x.data() + x.size(), ", ")));
  return (1e-7 + x.array() * (0.02 - 1e-7)).matrix();
}

EmnistFamily::EmnistFamily(const EmnistSpec& spec) : spec_(spec) {
  const CnnOptions& c = spec.cnn;
  if (c.conv1 < 1 || c.conv2 < 1 || c.hidden < 1 || c.epochs < 1 || c.batch < 1)
    throw std::invalid_argument(fmt::format(
        "objective.conv1/conv2/hidden/epochs/batch_size must be >= 1, got {}/{}/{}/{}/{}", c.conv1,
        c.conv2, c.hidden, c.epochs, c.batch));
  try {
    cnn::SmallCnn::check_size(c.conv1, c.conv2, c.hidden);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("objective.conv1/conv2/hidden: ") + e.what());
  }
  for (WriterDigits& w : load_femnist_digits(spec.data_dir))
    writers_.push_back(std::make_shared<const WriterDigits>(std::move(w)));
}

void EmnistFamily::check_agents(int agents) const {
  if (agents < 1 || agents > max_agents())
    throw std::invalid_argument(
        fmt::format("agents.count: the FEMNIST digits have {} writers with test digits, got {}",
                    max_agents(), agents));
}

std::vector<std::int64_t> EmnistFamily::records(int agents) const {
  check_agents(agents);
  std::vector<std::int64_t> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(writers_[static_cast<std::size_t>(n)]->train_x.rows());
  return out;
}

std::vector<std::shared_ptr<const Objective>> EmnistFamily::make(int agents,
                                                                 const core::RngFactory&) const {
  check_agents(agents);
  std::vector<std::shared_ptr<const Objective>> out;
  for (int n = 0; n < agents; ++n)
    out.push_back(std::make_shared<EmnistObjective>(writers_[n], spec_.cnn, n));
  return out;
}

}  // namespace fbosim::datasets

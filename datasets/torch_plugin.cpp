#include "datasets/torch_plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>

namespace fbosim::datasets {

namespace {

std::string plugin_path() {
  if (const char* env = std::getenv("FBOSIM_TORCH_PLUGIN"); env && *env) return env;
#ifdef FBOSIM_TORCH_PLUGIN_PATH
  if (std::filesystem::exists(FBOSIM_TORCH_PLUGIN_PATH)) return FBOSIM_TORCH_PLUGIN_PATH;
#endif
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (ec ? std::filesystem::path("libfbosim_torch.so")
             : exe.parent_path() / "libfbosim_torch.so")
      .string();
}

}  // namespace

bool torch_plugin_built() {
#ifdef FBOSIM_HAVE_TORCH
  return true;
#else
  return false;
#endif
}

void* torch_plugin_symbol(const std::string& name) {
  if (!torch_plugin_built())
    throw std::runtime_error(
        "this fbosim was built without LibTorch: install libtorch-dev (Debian 12) and rebuild "
        "(tools/setup.sh installs it unless FBOSIM_NO_TORCH=1)");
  static std::once_flag once;
  static void* handle = nullptr;
  static std::string error;
  std::call_once(once, [] {
    const std::string path = plugin_path();
    // LibTorch's dense layers call the system BLAS; a multi-threaded OpenBLAS (if Debian's
    // alternatives pick one) would start threads inside every training while fbosim already runs
    // one training per core. It reads this when it is loaded; a user's own setting wins.
    setenv("OPENBLAS_NUM_THREADS", "1", /*overwrite=*/0);
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) error = "cannot load the LibTorch plugin " + path + ": " + dlerror();
  });
  if (!handle) throw std::runtime_error(error);
  void* symbol = dlsym(handle, name.c_str());
  if (!symbol) throw std::runtime_error("the LibTorch plugin has no symbol " + name);
  return symbol;
}

}  // namespace fbosim::datasets

#pragma once
// LibTorch code (datasets/*/torch/) lives in a plugin, libfbosim_torch.so, loaded with dlopen
// on first use: linking LibTorch into fbosim would cost every process ~0.5 s of LibTorch's
// static initialisation (fbosim privacy must answer in milliseconds), and the core must build
// and run without LibTorch at all.
#include <string>

namespace fbosim::datasets {

/// True when this build has the plugin (LibTorch was found at configure time).
bool torch_plugin_built();

/// The address of the plugin's extern "C" symbol `name`. Loads the plugin on first use from
/// $FBOSIM_TORCH_PLUGIN, else the build tree's path, else next to the executable. Throws
/// std::runtime_error naming the path and dlerror() when it cannot be loaded, or saying how to
/// get it when the build has no LibTorch.
void* torch_plugin_symbol(const std::string& name);

}  // namespace fbosim::datasets

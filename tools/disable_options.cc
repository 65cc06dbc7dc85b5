#include "tools/commands.h"

namespace cnnx::tools {

void add_disable_options(CLI::App* sub, std::vector<std::string>& passes, std::vector<std::string>& kernels) {
  // One value per flag: CLI11's vector options would otherwise take the positional inputs after them too.
  sub->add_option("--disable-pass", passes, "Plan without this graph pass (repeatable; see cnnx inspect)")
      ->allow_extra_args(false);
  sub->add_option("--disable-kernel", kernels,
                  "Plan without this kernel: OP:KERNEL or KERNEL (repeatable; see cnnx inspect)")
      ->allow_extra_args(false);
}

}  // namespace cnnx::tools

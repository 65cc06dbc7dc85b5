// Load-time warnings of a model (ModelReport::warnings: settings where engines are known to disagree), printed once
// on stderr by the commands that load a model to run it.
#include <iostream>

#include "tools/commands.h"

namespace cnnx::tools {

void print_warnings(const Model& model) {
  for (const std::string& w : model_report(model).warnings) std::cerr << "cnnx: warning: " << w << "\n";
}

}  // namespace cnnx::tools

// Defaults of the bounds on what one model may allocate (Options in api/cnnx.h, which installs this file).
#pragma once

#include <cstdint>

namespace cnnx {

constexpr int64_t kDefaultMaxTensorBytes = int64_t(4) << 30;  // any one initializer, constant or intermediate
constexpr int64_t kDefaultMaxArenaBytes = int64_t(16) << 30;  // the intermediates of one run together

}  // namespace cnnx

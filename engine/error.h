// cnnx::Error: the one exception type cnnx throws for bad models, bad inputs and unsupported cases.
// Messages name the node ("node 'conv1' (Conv): ...") or tensor ("tensor 'x': ...") they are about.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace cnnx {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

namespace detail {
template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

// Throws cnnx::Error with the streamed arguments as its message.
template <class... Args>
[[noreturn]] void fail(const Args&... args) {
  throw Error(detail::concat(args...));
}

// Throws cnnx::Error unless `condition` holds. Never compiled out (unlike assert). The message arguments are
// evaluated whether or not the condition holds: where building them costs something or may be invalid
// when the condition holds, write `if (!condition) fail(...)` instead.
template <class... Args>
void require(bool condition, const Args&... args) {
  if (!condition) fail(args...);
}

}  // namespace cnnx

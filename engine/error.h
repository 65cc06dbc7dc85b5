// cnnx::Error: the one exception type cnnx throws for bad models, bad inputs and unsupported cases.
// Messages name the node ("node 'conv1' (Conv): ...") or tensor ("tensor 'x': ...") they are about.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace cnnx {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

namespace detail {
// Appends one message argument printed as std::ostream's operator<< prints it (engine/error.cc), out of line
// so that a message costs its callers neither <sstream> nor a stream per argument list.
void append(std::string& s, std::string_view v);
void append(std::string& s, const char* v);
void append(std::string& s, char v);
void append(std::string& s, signed char v);
void append(std::string& s, unsigned char v);
void append(std::string& s, bool v);
void append(std::string& s, long long v);
void append(std::string& s, unsigned long long v);
void append(std::string& s, double v);
void append(std::string& s, long double v);
// The other integers, float and unscoped enums: widened as operator<< widens them.
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> || (std::is_enum_v<T> && std::is_convertible_v<T, long long>)>>
void append(std::string& s, T v) {
  if constexpr (std::is_floating_point_v<T>)
    append(s, static_cast<double>(v));
  else if constexpr (std::is_signed_v<T> || std::is_enum_v<T>)
    append(s, static_cast<long long>(v));
  else
    append(s, static_cast<unsigned long long>(v));
}
// Pointers other than C strings are not message arguments (operator<< would print an address).
template <class T>
std::enable_if_t<!std::is_same_v<std::remove_cv_t<T>, char>> append(std::string& s, T* v) = delete;

template <class... Args>
std::string concat(const Args&... args) {
  std::string s;
  (append(s, args), ...);
  return s;
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

// The message arguments of fail() and require(), printed exactly as std::ostream's operator<< prints them
// (messages are part of the CLI's contract: the bad-input corpus compares them byte for byte).
#include "engine/error.h"

#include <sstream>

namespace cnnx::detail {
namespace {
template <class T>
void stream(std::string& s, T v) {
  std::ostringstream os;
  os << v;
  s += os.str();
}
}  // namespace

void append(std::string& s, std::string_view v) { s += v; }
void append(std::string& s, const char* v) { s += v ? v : ""; }  // a null one: nothing
void append(std::string& s, char v) { s += v; }
void append(std::string& s, signed char v) { s += static_cast<char>(v); }
void append(std::string& s, unsigned char v) { s += static_cast<char>(v); }
void append(std::string& s, bool v) { s += v ? '1' : '0'; }
void append(std::string& s, long long v) { s += std::to_string(v); }
void append(std::string& s, unsigned long long v) { s += std::to_string(v); }
void append(std::string& s, double v) { stream(s, v); }
void append(std::string& s, long double v) { stream(s, v); }

}  // namespace cnnx::detail

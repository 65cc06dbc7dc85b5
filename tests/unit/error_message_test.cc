// fail()'s messages print every argument as std::ostream's operator<< does (engine/error.cc appends them out
// of line): the CLI's error text is a contract (the bad-input corpus compares it byte for byte).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>

#include "engine/error.h"

using namespace cnnx;

namespace {

enum Unscoped { kThree = 3 };

template <class... Args>
std::string streamed(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}

template <class... Args>
std::string thrown(const Args&... args) {
  try {
    fail(args...);
  } catch (const Error& e) {
    return e.what();
  }
  return "(fail did not throw)";
}

template <class... Args>
void check_same(const Args&... args) {
  const std::string want = streamed(args...), got = thrown(args...);
  CAPTURE(want);
  CAPTURE(got);
  CHECK(got == want);
}

}  // namespace

TEST_CASE("fail() prints its arguments as operator<< would") {
  const std::string name = "conv1";
  const std::string_view view = "view";
  const char* c_string = "c string";
  char buffer[] = "mutable";
  check_same("node '", name, "' (", view, ") ", c_string, " ", buffer);
  check_same('x', int8_t(65), uint8_t(66), static_cast<signed char>('C'), true, false);
  check_same(short(-7), int(-42), 42u, -(int64_t(1) << 40), uint64_t(1) << 63, size_t(0), uint16_t(65535));
  check_same(std::numeric_limits<int64_t>::min(), std::numeric_limits<uint64_t>::max(), kThree);
  check_same(0.1, 1.0, 1e-7, 123456789.0, -0.0, 1.1f, 3.4028235e38f, 1e300, 0.1L);
  check_same(std::numeric_limits<double>::infinity(), -std::numeric_limits<float>::infinity(),
             std::numeric_limits<double>::quiet_NaN());
}

TEST_CASE("require() throws only when its condition fails") {
  CHECK_NOTHROW(require(true, "never ", 1));
  CHECK_THROWS_WITH_AS(require(false, "tensor '", std::string("x"), "' has ", 3, " dims"), "tensor 'x' has 3 dims",
                       Error);
}

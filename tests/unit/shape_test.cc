#include <doctest/doctest.h>

#include "engine/shape.h"
#include "ops/common/broadcast.h"

using namespace cnnx;

TEST_CASE("checked_mul refuses overflow and negative factors") {
  CHECK(checked_mul(3, 4) == 12);
  CHECK_THROWS_AS(checked_mul(int64_t(1) << 40, int64_t(1) << 40), Error);
  CHECK_THROWS_AS(checked_mul(-1, 4), Error);
  CHECK(checked_numel({}) == 1);
  CHECK(checked_numel({2, 0, 5}) == 0);
  CHECK_THROWS_AS(checked_numel({2, -1}), Error);
}

TEST_CASE("broadcast_shapes follows numpy rules") {
  struct Case { std::vector<Shape> in; Shape want; };
  const Case cases[] = {
      {{{2, 3, 4, 5}, {}}, {2, 3, 4, 5}},
      {{{2, 3, 4, 5}, {5}}, {2, 3, 4, 5}},
      {{{4, 5}, {2, 3, 4, 5}}, {2, 3, 4, 5}},
      {{{1, 4, 5}, {2, 3, 1, 1}}, {2, 3, 4, 5}},
      {{{3, 4, 5}, {2, 1, 1, 1}}, {2, 3, 4, 5}},
      {{{-1, 3}, {1, 3}}, {-1, 3}},
      {{{-1, 3}, {4, 3}}, {4, 3}},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.in[0]));
    CAPTURE(to_string(c.in[1]));
    CHECK(broadcast_shapes(c.in) == c.want);
  }
  CHECK_THROWS_AS(broadcast_shapes({{2, 3}, {4, 3}}), Error);
}

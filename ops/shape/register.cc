#include "ops/families.h"
#include "ops/shape/register.h"

namespace cnnx {

void register_shape_ops(OpRegistry& r) {
  shape_ops::register_reshape_ops(r);
  shape_ops::register_transpose_ops(r);
  shape_ops::register_concat_ops(r);
  shape_ops::register_slice_ops(r);
  shape_ops::register_gather_ops(r);
  shape_ops::register_shape_of_ops(r);
  shape_ops::register_cast_ops(r);
  shape_ops::register_constant_ops(r);
  shape_ops::register_identity_ops(r);
  shape_ops::register_pad_ops(r);
  shape_ops::register_channel_shuffle_ops(r);
}

}  // namespace cnnx

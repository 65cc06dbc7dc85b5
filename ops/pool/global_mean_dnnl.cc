// The layouts the global mean kernel (ops/pool/global_mean.h) reads where they arrive: the one place it looks
// into a oneDNN memory descriptor.
#include "ops/pool/global_mean.h"

#include "dnnl/dnnl_runtime.h"

namespace cnnx {

namespace {

// True when spatial dims [2, rank) of `dims` / `strides` form one contiguous run of positions `unit` floats
// apart (the last dim fastest); size-1 dims may have any stride.
bool spatial_contiguous(const int64_t* dims, const int64_t* strides, int rank, int64_t unit) {
  int64_t expected = unit;
  for (int d = rank - 1; d >= 2; --d) {
    if (dims[d] != 1 && strides[d] != expected) return false;
    expected *= dims[d];
  }
  return true;
}

}  // namespace

bool mean_layout_of(const Layout& layout, const Shape& shape, MeanLayout& out) {
  if (is_plain(layout)) {
    out = plain_mean_layout(shape);
    return true;
  }
  const dnnl_memory_desc_t& md = md_of(layout).data;  // the C struct: its blocking fields
  const int rank = md.ndims;
  if (md.data_type != dnnl_f32 || md.format_kind != dnnl_blocked || md.extra.flags != 0 || rank < 3 ||
      size_t(rank) != shape.size())
    return false;
  for (int d = 0; d < rank; ++d)
    if (md.dims[d] != shape[size_t(d)] || md.padded_offsets[d] != 0 || (d >= 2 && md.padded_dims[d] != md.dims[d]))
      return false;
  const dnnl_blocking_desc_t& b = md.format_desc.blocking;
  MeanLayout L = plain_mean_layout(shape);
  L.offset = md.offset0;
  L.n_stride = b.strides[0];
  L.c_stride = b.strides[1];
  if (b.inner_nblks == 0 && spatial_contiguous(md.dims, b.strides, rank, 1)) {
    L.kind = MeanLayout::planes;  // plain up to the N and C strides
  } else if (b.inner_nblks == 1 && b.inner_idxs[0] == 1 && spatial_contiguous(md.dims, b.strides, rank, b.inner_blks[0])) {
    L.kind = MeanLayout::channel_rows;  // nC[D]HW<B>c
    L.lanes = L.row_stride = b.inner_blks[0];
  } else if (b.inner_nblks == 0 && b.strides[1] == 1) {
    // Channels-last: positions one row of C floats (or more) apart.
    int64_t unit = 0;
    for (int d = rank - 1; d >= 2 && unit == 0; --d)
      if (md.dims[d] != 1) unit = b.strides[d];
    if (unit < L.C || !spatial_contiguous(md.dims, b.strides, rank, unit)) return false;
    L.kind = MeanLayout::channel_rows;
    L.lanes = L.C;
    L.row_stride = unit;
    L.c_stride = 0;
  } else {
    return false;
  }
  out = L;
  return true;
}

}  // namespace cnnx

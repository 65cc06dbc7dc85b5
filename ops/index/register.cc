// The index family: ops that select, place or make elements by index or by the data (Gather, Scatter*,
// NonZero, Compress, Unique, OneHot, Trilu, ReverseSequence). Every one is exact (kExact): elements are
// copied, or (the Scatter reductions) combined with one IEEE operation per update.
#include "ops/common/node_checks.h"
#include "ops/families.h"
#include "ops/index/compress.h"
#include "ops/index/gather.h"
#include "ops/index/gather_elements.h"
#include "ops/index/gather_nd.h"
#include "ops/index/non_zero.h"
#include "ops/index/one_hot.h"
#include "ops/index/reverse_sequence.h"
#include "ops/index/scatter_elements.h"
#include "ops/index/scatter_nd.h"
#include "ops/index/trilu.h"
#include "ops/index/unique.h"

namespace cnnx {

void register_index_ops(OpRegistry& r) {
  OpSpec<GatherParams> gather{"Gather", 1, parse_gather, infer_gather, kExact,
                              {gather_dnnl_kernel(), ref_kernel(gather_ref)}};
  gather.hints.copies_only = true;
  r.add(std::move(gather));
  // Shapes from data (OpHints::shapes_from_data: ops/index/non_zero.h, compress.h).
  OpSpec<NoParams> non_zero{"NonZero", 9, parse_no_attributes<1, 1>, infer_non_zero, kExact, {ref_kernel(non_zero_ref)}};
  non_zero.hints.shapes_from_data = true;
  r.add(std::move(non_zero));
  OpSpec<CompressParams> compress{"Compress", 9, parse_compress, infer_compress, kExact, {ref_kernel(compress_ref)}};
  compress.hints.shapes_from_data = true;
  compress.hints.caution = compress_caution;  // negative axes below opset 11, with a warning
  r.add(std::move(compress));
  OpSpec<UniqueParams> unique{"Unique", 11, parse_unique, infer_unique, kExact, {ref_kernel(unique_ref)}};
  unique.hints.shapes_from_data = true;
  r.add(std::move(unique));
  r.add(OpSpec<GatherParams>{"GatherElements", 11, parse_gather, infer_gather_elements, kExact,
                             {ref_kernel(gather_elements_ref)}});
  r.add(OpSpec<GatherNDParams>{"GatherND", 11, parse_gather_nd, infer_gather_nd, kExact, {ref_kernel(gather_nd_ref)}});
  r.add(OpSpec<ScatterNDParams>{"ScatterND", 11, parse_scatter_nd, infer_scatter_nd, kExact,
                                {ref_kernel(scatter_nd_ref)}});
  r.add(OpSpec<ScatterElementsParams>{"ScatterElements", 11, parse_scatter_elements, infer_scatter_elements, kExact,
                                      {ref_kernel(scatter_elements_ref)}});
  r.add(OpSpec<ScatterElementsParams>{"Scatter", 9, parse_scatter_elements, infer_scatter_elements, kExact,
                                      {ref_kernel(scatter_elements_ref)}});
  r.add(OpSpec<TriluParams>{"Trilu", 14, parse_trilu, infer_trilu, kExact, {ref_kernel(trilu_ref)}});
  // OneHot's depth sets the output's length: a float graph input there is planned with its data.
  OpSpec<OneHotParams> one_hot{"OneHot", 9, parse_one_hot, infer_one_hot, kExact, {ref_kernel(one_hot_ref)}};
  one_hot.hints.float_shape_inputs = {1};
  r.add(std::move(one_hot));
  r.add(OpSpec<ReverseSequenceParams>{"ReverseSequence", 10, parse_reverse_sequence, infer_reverse_sequence, kExact,
                                      {ref_kernel(reverse_sequence_ref)}});
}

}  // namespace cnnx

// Buffers every run streams through and that live as long as a plan: its arenas and the weights its kernels
// prepare once.
// They live in transparent huge pages (madvise MADV_HUGEPAGE): with 4 KiB pages each page read costs a TLB miss,
// and a run reads all of a model's weights (resnet50: ~100 MB; huge pages took it from 36.3 to 35.7 ms).
// A buffer of kHugePageBytes or more is aligned to a huge page and has its own (its last partial huge page stays
// in small pages: no rounding waste). Smaller ones are packed, 64-byte aligned, into shared huge pages: the
// first of the last 16 with room, else a new one. A shared page is freed with the last buffer in it. Where the
// kernel has no THP the advice is ignored. Tensors (a model's initializers, a run's outputs) are not hot: they
// use ordinary pages.
#pragma once

#include <cstddef>
#include <memory>

namespace cnnx {

inline constexpr size_t kHugePageBytes = size_t(2) << 20;

// At least `bytes` (0 gives a small non-null buffer), uninitialized. Throws cnnx::Error when out of memory.
// Thread-safe.
std::shared_ptr<void> allocate_hot_buffer(size_t bytes);

}  // namespace cnnx

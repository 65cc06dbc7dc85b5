// Memory for a model's large constants whose pages can be handed back to the system while nothing reads
// them. A classifier's weights are read once when a plan prepares them in the layout its primitives want
// (dnnl/prepared_weights.h); kept beside that copy they doubled peak RSS (vgg11_bn: 1050 MB for 531 MB of
// weights, ONNX Runtime 702). The store that prepared a constant releases its bytes and restores them from
// the prepared copy when a new plan needs them.
//
// A releasable buffer is a mapping of its own. Released, its pages are dropped and made unreadable: a read of
// released bytes faults instead of seeing zeros. While a pin on a buffer lives (a plan whose kernels read it
// at run time holds one), release_pages leaves it alone.
//
// Thread safety: every function may be called from any thread; the caller orders a release against the
// readers it knows of (the pins cover the rest).
#pragma once

#include <cstddef>
#include <memory>

namespace cnnx {

// Constants of this many bytes or more are allocated releasable by the importer; smaller ones are not
// worth a mapping of their own.
inline constexpr size_t kReleasableBytes = size_t(1) << 20;

// At least `bytes`, page-aligned, uninitialized, a mapping of its own that release_pages may drop. Throws
// cnnx::Error when out of memory.
std::shared_ptr<void> allocate_releasable(size_t bytes);

// True when `data` starts a live releasable buffer.
bool is_releasable(const void* data);
// True when `data` starts a releasable buffer whose pages are released.
bool pages_released(const void* data);

// Keeps the releasable buffer starting at `data` from being released while the returned token lives
// (nullptr when `data` is not releasable). The buffer must be readable (not released) when pinned.
std::shared_ptr<void> pin_pages(const void* data);

// Drops the whole pages of the releasable buffer starting at `data` that lie within [offset, offset +
// bytes) (all of them by default) and makes them unreadable; the buffer is released from then on, however
// little of it was dropped. False (and nothing done) when `data` is not releasable or is pinned.
bool release_pages(const void* data, size_t offset = 0, size_t bytes = size_t(-1));

// Makes a released buffer readable and writable again; its bytes are zeros until the caller writes them.
// Nothing for a buffer that is not released.
void restore_pages(const void* data);

}  // namespace cnnx

// Weights prepared once from constant data (reordered into a primitive's layout), shared by the plans of
// one model, without oneDNN's headers (kernels ask for them with prepare_constant, dnnl/dnnl_runtime.h).
//
// Why: a model keeps a plan per set of input shapes and, on a busy machine, a one-thread twin of each
// (runtime/team.h). Their convolutions mostly want the same weights in the same layout; each plan holding
// its own copy cost resnet50 114 MB more once the twin was made.
//
// A kernel compiled with a store (CompileContext::weights) that prepares constant data equal to an earlier
// request of the same store (the same bytes, described by the same source descriptor,
// into the same target descriptor) gets the memory prepared then, if a kernel still holds it; otherwise
// the data is prepared into a new buffer that later requests may share. oneDNN may choose another weights
// layout for another thread count or shape: then the target descriptors differ, and each plan has its own.
// Prepared memory is never written after it is made, and lives as long as the last kernel using it (the
// store itself holds none).
//
// Thread safety: plans on many threads may use one store at once (two threads preparing equal data at the
// same moment may both prepare it; the first kept is shared from then on).
//
// Kernels compiled with a batch (CompileContext::batch) have their reorders put off and run together by its
// fill():
// a plan's reorders are one per convolution, and each one split over the team was a fork-join that, on a
// loaded machine, waits for a descheduled thread's next time slice (resnet50's planning: 180-940 ms at load
// average 6, 60 ms with every reorder on one thread). fill() runs the small ones in one parallel region, each
// on one thread, and splits only the large ones (a classifier's fully-connected weights) over the team.
//
// Releasing: fill() also releases the bytes of each constant a batch prepared for a store, when
// they are releasable (engine/releasable_pages.h: the importer's large initializers) and unpinned (a plan
// pins those its steps read at run time before it fills). The model then holds one copy of such weights, the prepared one
// (alexnet: peak RSS 487 -> 2xx MB). restore() writes them back from their prepared copies: a model calls it
// before anything else may read its constants (planning, which may fold or compare them; checks, whose
// reference kernels read them).
#pragma once

#include <cstdint>
#include <memory>

namespace cnnx {

// The prepared weights of one model's plans (CompileContext::weights).
class PreparedWeights {
 public:
  PreparedWeights();
  ~PreparedWeights();

  // Makes the bytes of every constant released through this store readable again, rebuilt from the
  // prepared copy (exact from a float32 copy; rounded to bfloat16 from a native bfloat16 plan's bf16 copy, the
  // values its bf16 kernels read). Not to be called while a batch of this store fills.
  void restore();

  struct Store;  // the entries (dnnl/prepared_weights.cc)
  Store& store() { return *store_; }

 private:
  std::unique_ptr<Store> store_;
};

// The reorders of one plan's kernels, put off (prepare_constant hands out the buffer unfilled) until fill(),
// which must come before any kernel that got such a buffer runs; it also makes the buffers shareable through
// their store, which never offers one unfilled. Destroyed unfilled (planning failed), it drops the reorders.
class PreparedWeightBatch {
 public:
  PreparedWeightBatch();
  ~PreparedWeightBatch();
  // Runs the reorders on the calling thread's OpenMP team (see above), then releases the unpinned sources
  // of the requests made with a store. Throws cnnx::Error if a reorder fails.
  void fill();

  struct Pending;  // the reorders (dnnl/prepared_weights.cc)
  Pending& pending() { return *pending_; }

 private:
  std::unique_ptr<Pending> pending_;
};

// What prepare_constant did in this process, over every store and outside them: buffers made, requests
// served with an earlier buffer (counts and bytes), and requests served by the constant as it is (the
// primitive wants its layout: nothing is made). Every request is one of the three. For tests.
struct PreparedWeightCounts {
  int64_t made = 0, shared = 0, kept = 0;
  int64_t made_bytes = 0, shared_bytes = 0;
  PreparedWeightCounts operator-(const PreparedWeightCounts& before) const {
    return {made - before.made, shared - before.shared, kept - before.kept, made_bytes - before.made_bytes,
            shared_bytes - before.shared_bytes};
  }
};
PreparedWeightCounts prepared_weight_counts();

}  // namespace cnnx

#include "dnnl/prepared_weights.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "dnnl/dnnl_runtime.h"
#include "engine/releasable_pages.h"
#include "dnnl/thread_scope.h"

namespace cnnx {

namespace {

// One prepared buffer and what it was prepared from. `source` keeps the constant's bytes for comparing later
// requests with (usually the model's own initializer, so no copy).
struct Entry {
  Tensor source;
  dnnl::memory::desc from, to;
  OwnedMemory prepared;

  bool serves(const dnnl::memory::desc& f, const Tensor& constant, const dnnl::memory::desc& t) const {
    if (f != from || t != to || constant.bytes() != source.bytes()) return false;
    if (constant.raw() == source.raw()) return true;
    // Released bytes cannot be compared (nor read).
    return !pages_released(source.raw()) && !pages_released(constant.raw()) &&
           std::memcmp(constant.raw(), source.raw(), source.bytes()) == 0;
  }

  // True when the source's bytes can be rebuilt from the prepared copy: a reorder between f32 layouts moves
  // every element as it is. A bf16 copy (a native bfloat16 plan's weights) rebuilds them rounded to bfloat16:
  // what every bf16 kernel reads them as, and what a later plan of the model then sees (bfloat16_plan.h).
  bool restorable() const {
    return from.data_type() == dt::f32 && (to.data_type() == dt::f32 || to.data_type() == dt::bf16);
  }
};

// The memory of `entry`, keeping the entry (and so the buffer) alive.
OwnedMemory shared_memory(const std::shared_ptr<Entry>& entry) {
  OwnedMemory m;
  m.buffer = std::shared_ptr<void>(entry, entry->prepared.buffer.get());
  m.memory = entry->prepared.memory;
  return m;
}

std::atomic<int64_t> made{0}, shared{0}, kept{0}, made_bytes{0}, shared_bytes{0};

}  // namespace

struct PreparedWeights::Store {
  std::mutex mutex;
  std::unordered_multimap<size_t, std::weak_ptr<Entry>> entries;  // by the constant's byte count
  size_t sweep_at = 64;  // entries whose memory no kernel holds are dropped when there are this many
  std::vector<std::shared_ptr<Entry>> released;  // one per constant whose bytes are released, to restore them

  // Releases the bytes of `entry`'s source (restorable) when they are releasable and unpinned; keeps the entry
  // to restore them from.
  void release_source(const std::shared_ptr<Entry>& entry) {
    if (!release_pages(entry->source.raw())) return;
    std::lock_guard<std::mutex> lock(mutex);
    for (const std::shared_ptr<Entry>& e : released)
      if (e->source.raw() == entry->source.raw()) return;
    released.push_back(entry);
  }

  std::shared_ptr<Entry> find(const dnnl::memory::desc& from, const Tensor& constant, const dnnl::memory::desc& to) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [begin, end] = entries.equal_range(constant.bytes());
    for (auto it = begin; it != end; ++it)
      if (std::shared_ptr<Entry> e = it->second.lock(); e && e->serves(from, constant, to)) return e;
    return nullptr;
  }

  // Keeps `entry` for later requests; returns the entry to use (an equal one kept meanwhile, if any).
  std::shared_ptr<Entry> keep(std::shared_ptr<Entry> entry) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [begin, end] = entries.equal_range(entry->source.bytes());
    for (auto it = begin; it != end; ++it)
      if (std::shared_ptr<Entry> e = it->second.lock(); e && e->serves(entry->from, entry->source, entry->to))
        return e;
    entries.emplace(entry->source.bytes(), entry);
    if (entries.size() >= sweep_at) {
      for (auto it = entries.begin(); it != entries.end();) it = it->second.expired() ? entries.erase(it) : std::next(it);
      sweep_at = 2 * entries.size() + 64;
    }
    return entry;
  }
};

// A reorder put off by a Batch, and the store its buffer goes to once filled (null: none).
struct Deferred {
  std::shared_ptr<Entry> entry;
  PreparedWeights::Store* store;
};

struct PreparedWeightBatch::Pending {
  std::vector<Deferred> reorders;
  std::vector<Deferred> served;  // requests served with an earlier buffer of a store

  std::shared_ptr<Entry> find(const dnnl::memory::desc& from, const Tensor& constant, const dnnl::memory::desc& to) const {
    for (const Deferred& d : reorders)
      if (d.entry->serves(from, constant, to)) return d.entry;
    return nullptr;
  }
};

namespace {

// Weights of at least this many bytes are reordered by the whole team, one after another; smaller ones each
// by one thread, side by side. Large enough that the few fork-joins are worth the weights' time on every core
// (resnet50's largest is 9.4 MB; alexnet's and vgg's fully-connected ones are 16-411 MB).
constexpr size_t kTeamReorderBytes = size_t(16) << 20;

// A memory object over a constant's bytes, described by `md`.
dnnl::memory memory_over(const dnnl::memory::desc& md, const Tensor& t) {
  return dnnl::memory(md, dnnl_engine(), const_cast<void*>(t.raw()));
}

// One reorder, made, run on a stream of its own and waited for.
void reorder_once(dnnl::memory from, dnnl::memory to) {
  dnnl::stream stream(dnnl_engine());
  dnnl::reorder(from, to).execute(stream, from, to);
  stream.wait();
}

void reorder_now(const Entry& e) { reorder_once(memory_over(e.from, e.source), e.prepared.memory); }

// A large source to be released is reordered in slices along its outermost dim, each slice's pages released
// once read: the peak then holds one slice twice instead of the whole constant (vgg11_bn's fc6 is 411 MB,
// alexnet's 151). The source must be dense with that dim outermost, and the target blocked along it in
// whole blocks (oneDNN makes sub-memories of those); false, with nothing done, otherwise.
constexpr size_t kSliceBytes = size_t(32) << 20;

bool reorder_releasing_slices(const Entry& e) {
  const dnnl_memory_desc_t& f = e.from.data;
  const dnnl_memory_desc_t& t = e.to.data;
  if (f.format_kind != dnnl_blocked || f.format_desc.blocking.inner_nblks > 0 || f.offset0 != 0 ||
      t.format_kind != dnnl_blocked || f.ndims < 1)
    return false;
  int outer = 0;
  for (int i = 1; i < f.ndims; ++i)
    if (f.format_desc.blocking.strides[i] > f.format_desc.blocking.strides[outer]) outer = i;
  const int64_t rows = f.dims[outer], row_elements = f.format_desc.blocking.strides[outer];
  if (rows * row_elements != e.source.numel()) return false;  // not dense
  int64_t block = 1;
  for (int k = 0; k < t.format_desc.blocking.inner_nblks; ++k)
    if (t.format_desc.blocking.inner_idxs[k] == outer) block *= t.format_desc.blocking.inner_blks[k];
  const size_t row_bytes = size_t(row_elements) * sizeof(float);
  const int64_t per_slice = std::max<int64_t>(block, int64_t(kSliceBytes / row_bytes) / block * block);
  struct Slice {
    dnnl::memory::desc from, to;
    int64_t first, rows;
  };
  std::vector<Slice> slices;
  try {
    for (int64_t first = 0; first < rows; first += per_slice) {
      dnnl::memory::dims dims = e.from.dims(), offsets(dims.size(), 0);
      dims[size_t(outer)] = std::min(per_slice, rows - first);
      offsets[size_t(outer)] = first;
      slices.push_back({e.from.submemory_desc(dims, offsets), e.to.submemory_desc(dims, offsets), first,
                        dims[size_t(outer)]});
    }
  } catch (const dnnl::error&) {
    return false;
  }
  void* source = const_cast<void*>(e.source.raw());
  for (const Slice& s : slices) {
    reorder_once(dnnl::memory(s.from, dnnl_engine(), source),
                 dnnl::memory(s.to, dnnl_engine(), e.prepared.memory.get_data_handle()));
    release_pages(source, size_t(s.first) * row_bytes, size_t(s.rows) * row_bytes);
  }
  return true;
}

void count_made(const Entry& e) {
  ++made;
  made_bytes += int64_t(e.to.get_size());
}
}  // namespace

PreparedWeightBatch::PreparedWeightBatch() : pending_(std::make_unique<Pending>()) {}
PreparedWeightBatch::~PreparedWeightBatch() = default;

void PreparedWeightBatch::fill() {
  // Each source is released as soon as the last reorder reading it is done, so the peak holds a few
  // constants twice, not all of them. Pins keep those a plan reads at run time (release_pages refuses them).
  std::unordered_map<const void*, size_t> source_of;  // source data -> index into `readers`
  for (const Deferred& d : pending_->reorders) source_of.emplace(d.entry->source.raw(), source_of.size());
  std::vector<std::atomic<int>> readers(source_of.size());
  for (const Deferred& d : pending_->reorders) ++readers[source_of.at(d.entry->source.raw())];
  auto releases = [](const Deferred& d) { return d.store && d.entry->restorable(); };
  auto release = [&](const Deferred& d) {
    if (releases(d)) d.store->release_source(d.entry);
  };
  auto done = [&](const Deferred& d) {
    if (--readers[source_of.at(d.entry->source.raw())] == 0) release(d);
  };
  std::vector<const Deferred*> alone, side_by_side;
  for (const Deferred& d : pending_->reorders)
    (d.entry->prepared.memory.get_desc().get_size() >= kTeamReorderBytes ? alone : side_by_side).push_back(&d);
  for (const Deferred* d : alone) {
    const void* source = d->entry->source.raw();
    // In slices only when no other reorder reads the source (a pinned one is sliced too, none released).
    const bool slices = releases(*d) && readers[source_of.at(source)] == 1 && is_releasable(source);
    if (!slices || !reorder_releasing_slices(*d->entry)) reorder_now(*d->entry);
    done(*d);
  }
  std::vector<dnnl::reorder> reorders;
  std::vector<dnnl::memory> users, prepared;
  {
    ThreadScope one(1);  // each runs on one thread (and the parallel region below runs them nested anyway)
    for (const Deferred* d : side_by_side) {
      const Entry* e = d->entry.get();
      users.push_back(memory_over(e->from, e->source));
      prepared.push_back(e->prepared.memory);
      reorders.emplace_back(users.back(), prepared.back());
    }
  }
  std::string error;
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t i = 0; i < reorders.size(); ++i) {
    try {
      dnnl::stream stream(dnnl_engine());  // streams are not thread-safe: one per reorder
      reorders[i].execute(stream, users[i], prepared[i]);
      stream.wait();
      done(*side_by_side[i]);
    } catch (const std::exception& ex) {
#pragma omp critical(cnnx_prepared_weights_error)
      if (error.empty()) error = ex.what();
    }
  }
  require(error.empty(), "reordering constant weights: ", error);
  for (const Deferred& d : pending_->served) release(d);
  for (Deferred& d : pending_->reorders) {
    count_made(*d.entry);
    if (d.store) d.store->keep(d.entry);
  }
  pending_->reorders.clear();
  pending_->served.clear();
}

void PreparedWeights::restore() {
  Store& s = *store_;
  std::lock_guard<std::mutex> lock(s.mutex);
  for (const std::shared_ptr<Entry>& e : s.released) {
    restore_pages(e->source.raw());
    reorder_once(e->prepared.memory, memory_over(e->from, e->source));
  }
  s.released.clear();
}

PreparedWeights::PreparedWeights() : store_(std::make_unique<Store>()) {}
PreparedWeights::~PreparedWeights() = default;

PreparedWeightCounts prepared_weight_counts() { return {made, shared, kept, made_bytes, shared_bytes}; }

OwnedMemory prepare_constant(const CompileContext& context, const dnnl::memory::desc& from, const Tensor& constant,
                             const dnnl::memory::desc& to) {
  if (from == to) {  // the constant as it is: no copy, and its bytes pinned (never released) while in use
    ++kept;
    struct Alias {
      Tensor constant;
      std::shared_ptr<void> pin;
    };
    auto alias = std::make_shared<Alias>(Alias{constant, pin_pages(constant.raw())});
    OwnedMemory m;
    m.buffer = std::shared_ptr<void>(alias, const_cast<void*>(constant.raw()));
    m.memory = memory_over(to, constant);
    return m;
  }
  PreparedWeights::Store* store = context.weights ? &context.weights->store() : nullptr;
  PreparedWeightBatch::Pending* batching = context.batch ? &context.batch->pending() : nullptr;
  std::shared_ptr<Entry> earlier = store ? store->find(from, constant, to) : nullptr;
  if (!earlier && batching) earlier = batching->find(from, constant, to);
  if (earlier) {
    ++shared;
    shared_bytes += int64_t(to.get_size());
    if (batching) batching->served.push_back({earlier, store});
    return shared_memory(earlier);
  }
  auto entry = std::make_shared<Entry>(Entry{constant, from, to, OwnedMemory(to, context)});
  if (batching) {
    batching->reorders.push_back({entry, store});
    return shared_memory(entry);
  }
  reorder_now(*entry);
  count_made(*entry);
  if (!store) return entry->prepared;  // the buffer alone: nothing keeps the constant for later comparisons
  return shared_memory(store->keep(entry));
}

}  // namespace cnnx

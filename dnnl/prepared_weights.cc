#include "dnnl/prepared_weights.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "dnnl/dnnl_runtime.h"

namespace cnnx {

namespace {

// One prepared buffer and what it was prepared from. `source` keeps the constant's bytes for comparing later
// requests with (usually the model's own initializer, so no copy).
struct Entry {
  Tensor source;
  dnnl::memory::desc from, to;
  OwnedMemory prepared;

  bool serves(const dnnl::memory::desc& f, const Tensor& constant, const dnnl::memory::desc& t) const {
    return f == from && t == to && constant.bytes() == source.bytes() &&
           (constant.raw() == source.raw() || std::memcmp(constant.raw(), source.raw(), source.bytes()) == 0);
  }
};

// The memory of `entry`, keeping the entry (and so the buffer) alive.
OwnedMemory shared_memory(const std::shared_ptr<Entry>& entry) {
  OwnedMemory m;
  m.buffer = std::shared_ptr<void>(entry, entry->prepared.buffer.get());
  m.memory = entry->prepared.memory;
  return m;
}

std::atomic<int64_t> made{0}, shared{0}, made_bytes{0}, shared_bytes{0};

}  // namespace

struct PreparedWeights::Store {
  std::mutex mutex;
  std::unordered_multimap<size_t, std::weak_ptr<Entry>> entries;  // by the constant's byte count
  size_t sweep_at = 64;  // entries whose memory no kernel holds are dropped when there are this many

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

namespace {
thread_local PreparedWeights::Store* current = nullptr;  // the innermost scope's
}  // namespace

PreparedWeights::PreparedWeights() : store_(std::make_unique<Store>()) {}
PreparedWeights::~PreparedWeights() = default;

PreparedWeights::Scope::Scope(PreparedWeights& store) : outer_(current) { current = store.store_.get(); }
PreparedWeights::Scope::~Scope() { current = outer_; }

PreparedWeightCounts prepared_weight_counts() { return {made, shared, made_bytes, shared_bytes}; }

OwnedMemory prepare_constant(const dnnl::memory::desc& from, const Tensor& constant, const dnnl::memory::desc& to) {
  PreparedWeights::Store* store = current;
  if (store)
    if (std::shared_ptr<Entry> e = store->find(from, constant, to)) {
      ++shared;
      shared_bytes += int64_t(to.get_size());
      return shared_memory(e);
    }
  OwnedMemory prepared(to);
  dnnl::memory user = dnnl_wrap(from, constant);
  dnnl::reorder(user, prepared.memory).execute(dnnl_stream(), user, prepared.memory);
  dnnl_stream().wait();
  ++made;
  made_bytes += int64_t(to.get_size());
  if (!store) return prepared;
  return shared_memory(store->keep(std::make_shared<Entry>(Entry{constant, from, to, std::move(prepared)})));
}

}  // namespace cnnx

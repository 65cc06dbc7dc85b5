// How a value's elements sit in its buffer within a plan. Plain is row-major, what cnnx::Tensor means
// everywhere outside a plan. Inside a plan, oneDNN kernels may keep values in the blocked layouts their
// primitives prefer (nChw16c, ...) so that chains of them run without reordering between nodes; the plan
// reorders only where a kernel needs another layout, and at the graph's edges.
//
// The core does not know oneDNN: a Layout is an opaque handle. The backend that makes a non-plain layout
// (dnnl/dnnl_runtime.h: layout_of, md_of) implements LayoutDesc and reads its own descriptor back.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace cnnx {

class LayoutDesc {
 public:
  virtual ~LayoutDesc() = default;
  virtual bool equals(const LayoutDesc& other) const = 0;
  virtual size_t bytes() const = 0;      // the buffer the layout needs (blocked layouts may pad)
  virtual std::string name() const = 0;  // "aBcd16b" (nChw16c), "acdb" (channels last), ...
};

class Layout {
 public:
  Layout() = default;  // plain
  explicit Layout(std::shared_ptr<const LayoutDesc> desc) : desc_(std::move(desc)) {}
  const LayoutDesc* desc() const { return desc_.get(); }  // nullptr when plain
  std::string name() const { return desc_ ? desc_->name() : "plain"; }
  friend bool operator==(const Layout& a, const Layout& b) {
    return a.desc_ == b.desc_ || (a.desc_ && b.desc_ && a.desc_->equals(*b.desc_));
  }
  friend bool operator!=(const Layout& a, const Layout& b) { return !(a == b); }

 private:
  std::shared_ptr<const LayoutDesc> desc_;
};

inline bool is_plain(const Layout& l) { return l.desc() == nullptr; }

// The layouts a compiled kernel reads its inputs in and writes its outputs in.
struct KernelLayouts {
  std::vector<Layout> in, out;
};

// Every one of `inputs` inputs plain, no wish for the outputs: what reference kernels are offered.
inline KernelLayouts plain_layouts(size_t inputs) { return {std::vector<Layout>(inputs), {}}; }

}  // namespace cnnx

// Python tensors as TensorViews (python/src/KernelCall.h), for both extensions (attnc._core and the
// runtime-only attnc._runtime): DLPack arrays through nanobind, or the tuples attnc.ops builds.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "python/src/KernelCall.h"

namespace attn::python {

namespace nb = nanobind;

inline TensorView view_of(const nb::ndarray<>& a) {
  TensorView t;
  t.data = a.data();
  t.device = {DLDeviceType(a.device_type()), int32_t(a.device_id())};
  t.dtype = {uint8_t(a.dtype().code), uint8_t(a.dtype().bits), uint16_t(a.dtype().lanes)};
  for (size_t d = 0; d < a.ndim(); ++d) {
    t.shape.push_back(a.shape(d));
    t.strides.push_back(a.stride(d));
  }
  return t;
}

// The tensors of one call as views. A tensor is either anything nanobind imports as an array
// (DLPack, the buffer protocol) or a host tensor the caller describes itself as a tuple
// (data pointer, DLPack type code, bits, shape, strides; empty strides: dense row-major; then,
// optionally, DLPack device type and id: host memory without them): what a torch tensor costs
// least to describe (attnc.ops), where its __dlpack__ costs ~4.5 µs (and, on a GPU, syncs streams).
class Views {
 public:
  TensorView operator()(nb::handle h) {
    if (!nb::isinstance<nb::tuple>(h)) {
      arrays_.push_back(nb::cast<nb::ndarray<>>(h));  // kept: the import may own the memory
      return view_of(arrays_.back());
    }
    auto spec = nb::borrow<nb::tuple>(h);
    if (spec.size() != 5 && spec.size() != 7)
      throw nb::type_error(
          "a tensor tuple is (data_ptr, dtype code, bits, shape, strides[, device type, id])");
    TensorView t;
    t.data = reinterpret_cast<void*>(nb::cast<uintptr_t>(spec[0]));
    t.dtype = {nb::cast<uint8_t>(spec[1]), nb::cast<uint8_t>(spec[2]), 1};
    t.shape = nb::cast<std::vector<int64_t>>(spec[3]);
    t.strides = nb::cast<std::vector<int64_t>>(spec[4]);
    if (spec.size() == 7) t.device = {DLDeviceType(nb::cast<int>(spec[5])), nb::cast<int32_t>(spec[6])};
    if (t.strides.empty()) {
      t.strides.resize(t.shape.size());
      int64_t stride = 1;
      for (size_t d = t.shape.size(); d-- > 0; stride *= t.shape[d]) t.strides[d] = stride;
    } else if (t.strides.size() != t.shape.size()) {
      throw nb::type_error("a tensor tuple's strides must be empty or one per dimension");
    }
    return t;
  }

  std::map<std::string, TensorView> operator()(const nb::dict& named) {
    std::map<std::string, TensorView> views;
    for (auto [name, t] : named) views[nb::cast<std::string>(name)] = (*this)(t);
    return views;
  }

 private:
  std::vector<nb::ndarray<>> arrays_;
};

}  // namespace attn::python

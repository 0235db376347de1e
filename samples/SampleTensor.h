// The samples' host tensors: dense, row-major, owning their elements, with a DLPack view for
// attn_kernel_args. float is f32, uint16_t bf16 bits, int32_t i32.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "attn/kernel_abi.h"

namespace samples {

template <class Element>
struct Tensor {
  std::vector<Element> data;
  std::vector<int64_t> shape;
  DLTensor dl{};
  explicit Tensor(std::vector<int64_t> s) : shape(std::move(s)) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    data.assign(static_cast<size_t>(n), Element{});
    dl.data = data.data();
    dl.device = {kDLCPU, 0};
    dl.ndim = static_cast<int>(shape.size());
    dl.dtype = std::is_same_v<Element, float>     ? DLDataType{kDLFloat, 32, 1}
               : std::is_same_v<Element, int32_t> ? DLDataType{kDLInt, 32, 1}
                                                  : DLDataType{kDLBfloat, 16, 1};
    dl.shape = shape.data();
  }
  Tensor(const Tensor&) = delete;  // dl points into data
  Tensor& operator=(const Tensor&) = delete;
};

}  // namespace samples

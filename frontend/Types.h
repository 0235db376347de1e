// The types of .attn values: scalars, tensors (run-time buffers), masks and score modifiers.
#pragma once

#include <string>
#include <vector>

namespace attn {

enum class TypeKind { Error, Bool, Int, Float, Tensor, Mask, Score, Tuple };
enum class ElemType { I32, F32, Bool };

struct Type {
  TypeKind kind = TypeKind::Error;
  ElemType elem = ElemType::F32;   ///< Tensor
  std::vector<std::string> dims;   ///< Tensor: dimension names or sizes as written
  std::vector<TypeKind> elements;  ///< Tuple: the scalar type of each value

  static Type error() { return {}; }
  static Type of(TypeKind k) {
    Type t;
    t.kind = k;
    return t;
  }
  bool is_error() const { return kind == TypeKind::Error; }
  bool is_scalar() const {
    return kind == TypeKind::Bool || kind == TypeKind::Int || kind == TypeKind::Float;
  }
  bool is_numeric() const { return kind == TypeKind::Int || kind == TypeKind::Float; }
  bool operator==(const Type& o) const {
    return kind == o.kind && (kind != TypeKind::Tensor || (elem == o.elem && dims.size() == o.dims.size())) &&
           elements == o.elements;
  }
};

/// "int", "tensor<f32>[heads]", "mask", ...
std::string type_name(const Type& t);
const char* elem_type_name(ElemType e);

}  // namespace attn

// The types of .attn values: scalars, tensors (run-time buffers), masks and score modifiers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

enum class TypeKind { Error, Bool, Int, Float, Tensor, Mask, Score, Tuple };
enum class ElemType { I32, F32, Bool };

/// A type is copied into every expression, parameter and binding of it (an editor's analysis holds
/// one per expression of the document), so it is 8 bytes: a tensor's element type and dimensions
/// or a tuple's elements are interned (one copy of each distinct one, for the life of the process)
/// and absent from the other types.
struct Type {
  TypeKind kind = TypeKind::Error;

  /// What a tensor or tuple type has beyond its kind, interned (see Types.cpp).
  struct Parts {
    ElemType elem = ElemType::F32;
    std::vector<std::string> dims;
    std::vector<TypeKind> elements;
    bool operator<(const Parts& o) const;
  };

  static Type error() { return {}; }
  static Type of(TypeKind k) {
    Type t;
    t.kind = k;
    return t;
  }
  static Type tensor(ElemType elem, std::vector<std::string> dims);
  static Type tuple(std::vector<TypeKind> elements);

  /// Tensor: the element type (F32 for the other types).
  ElemType elem() const;
  /// Tensor: dimension names or sizes as written.
  const std::vector<std::string>& dims() const;
  /// Tuple: the scalar type of each value.
  const std::vector<TypeKind>& elements() const;

  bool is_error() const { return kind == TypeKind::Error; }
  bool is_scalar() const {
    return kind == TypeKind::Bool || kind == TypeKind::Int || kind == TypeKind::Float;
  }
  bool is_numeric() const { return kind == TypeKind::Int || kind == TypeKind::Float; }
  bool operator==(const Type& o) const {
    return kind == o.kind &&
           (kind != TypeKind::Tensor || (elem() == o.elem() && dims().size() == o.dims().size())) &&
           elements() == o.elements();
  }

 private:
  static uint32_t intern(Parts parts);
  static const Parts& parts(uint32_t id);
  uint32_t parts_ = 0;  ///< 0 for a type without dims or elements, else the id of its parts
};

/// "int", "tensor<f32>[heads]", "mask", ...
std::string type_name(const Type& t);
const char* elem_type_name(ElemType e);

}  // namespace attn

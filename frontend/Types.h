// The types of .attn values: scalars, tensors (run-time buffers), masks and score modifiers.
#pragma once

#include <string>
#include <vector>

namespace attn {

enum class TypeKind { Error, Bool, Int, Float, Tensor, Mask, Score, Tuple };
enum class ElemType { I32, F32, Bool };

/// A type is copied into every expression, parameter and binding of it (an editor's analysis holds
/// one per expression of the document), so it is small: a tensor's dimensions or a tuple's
/// elements are interned (one copy per distinct list, for the life of the process) and absent from
/// the other types.
struct Type {
  TypeKind kind = TypeKind::Error;
  ElemType elem = ElemType::F32;  ///< Tensor

  static Type error() { return {}; }
  static Type of(TypeKind k) {
    Type t;
    t.kind = k;
    return t;
  }
  static Type tensor(ElemType elem, std::vector<std::string> dims);
  static Type tuple(std::vector<TypeKind> elements);

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
           (kind != TypeKind::Tensor || (elem == o.elem && dims().size() == o.dims().size())) &&
           elements() == o.elements();
  }

 private:
  struct Parts {
    std::vector<std::string> dims;
    std::vector<TypeKind> elements;
    bool operator<(const Parts& o) const;
  };
  static const Parts* intern(Parts parts);
  const Parts* parts_ = nullptr;  ///< null for a type without dims or elements
};

/// "int", "tensor<f32>[heads]", "mask", ...
std::string type_name(const Type& t);
const char* elem_type_name(ElemType e);

}  // namespace attn

// Type names for messages and hovers.
#include "frontend/Types.h"

#include "frontend/Ast.h"

namespace attn {

const char* elem_type_name(ElemType e) {
  switch (e) {
    case ElemType::I32: return "i32";
    case ElemType::F32: return "f32";
    case ElemType::Bool: return "bool";
  }
  return "?";
}

std::string type_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::Error: return "<error>";
    case TypeKind::Bool: return "bool";
    case TypeKind::Int: return "int";
    case TypeKind::Float: return "float";
    case TypeKind::Mask: return "mask";
    case TypeKind::Score: return "score";
    case TypeKind::Tensor: {
      std::string s = std::string("tensor<") + elem_type_name(t.elem) + ">[";
      for (size_t i = 0; i < t.dims.size(); ++i) s += (i ? ", " : "") + t.dims[i];
      return s + "]";
    }
    case TypeKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < t.elements.size(); ++i)
        s += (i ? ", " : "") + type_name(Type::of(t.elements[i]));
      return s + ")";
    }
  }
  return "?";
}

const char* decl_kind_name(DeclKind k) {
  switch (k) {
    case DeclKind::Mask: return "mask";
    case DeclKind::Score: return "score";
    case DeclKind::Fn: return "fn";
    case DeclKind::Kernel: return "kernel";
  }
  return "?";
}

}  // namespace attn

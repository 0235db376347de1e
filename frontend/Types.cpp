// Types: the interned dims and tuple elements, and type names for messages and hovers.
#include "frontend/Types.h"

#include <mutex>
#include <set>

#include "frontend/Ast.h"

namespace attn {

bool Type::Parts::operator<(const Parts& o) const {
  return dims != o.dims ? dims < o.dims : elements < o.elements;
}

// Few distinct lists exist (the dimension names and tuple signatures written in the programs
// checked), while types are copied into every expression: a pointer to the one copy of each is
// the smallest type, and the table is never emptied, so that no type can outlive its list.
const Type::Parts* Type::intern(Parts parts) {
  static std::mutex mutex;
  static std::set<Parts> table;
  std::lock_guard<std::mutex> lock(mutex);
  return &*table.insert(std::move(parts)).first;
}

Type Type::tensor(ElemType elem, std::vector<std::string> dims) {
  Type t = of(TypeKind::Tensor);
  t.elem = elem;
  t.parts_ = intern({std::move(dims), {}});
  return t;
}

Type Type::tuple(std::vector<TypeKind> elements) {
  Type t = of(TypeKind::Tuple);
  t.parts_ = intern({{}, std::move(elements)});
  return t;
}

const std::vector<std::string>& Type::dims() const {
  static const std::vector<std::string> none;
  return parts_ ? parts_->dims : none;
}

const std::vector<TypeKind>& Type::elements() const {
  static const std::vector<TypeKind> none;
  return parts_ ? parts_->elements : none;
}

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
      for (size_t i = 0; i < t.dims().size(); ++i) s += (i ? ", " : "") + t.dims()[i];
      return s + "]";
    }
    case TypeKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < t.elements().size(); ++i)
        s += (i ? ", " : "") + type_name(Type::of(t.elements()[i]));
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

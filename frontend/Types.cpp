// Types: the interned dims and tuple elements, and type names for messages and hovers.
#include "frontend/Types.h"

#include <deque>
#include <map>
#include <mutex>

#include "frontend/Ast.h"

namespace attn {

bool Type::Parts::operator<(const Parts& o) const {
  if (elem != o.elem) return elem < o.elem;
  return dims != o.dims ? dims < o.dims : elements < o.elements;
}

namespace {

// Few distinct parts exist (the tensor types and tuple signatures written in the programs
// checked), while types are copied into every expression: a 32-bit id of the one copy of each
// makes the type 8 bytes. The table is never emptied, so that no type outlives its parts; a
// deque keeps each where it is as the table grows.
struct PartsTable {
  std::mutex mutex;
  std::deque<Type::Parts> parts;
  std::map<Type::Parts, uint32_t> ids;  ///< 1 + the index in `parts`
};

PartsTable& parts_table() {
  static PartsTable table;
  return table;
}

}  // namespace

uint32_t Type::intern(Parts parts) {
  PartsTable& t = parts_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.ids.find(parts);
  if (it != t.ids.end()) return it->second;
  t.parts.push_back(parts);
  uint32_t id = static_cast<uint32_t>(t.parts.size());
  t.ids.emplace(std::move(parts), id);
  return id;
}

const Type::Parts& Type::parts(uint32_t id) {
  PartsTable& t = parts_table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.parts[id - 1];
}

Type Type::tensor(ElemType elem, std::vector<std::string> dims) {
  Type t = of(TypeKind::Tensor);
  t.parts_ = intern({elem, std::move(dims), {}});
  return t;
}

Type Type::tuple(std::vector<TypeKind> elements) {
  Type t = of(TypeKind::Tuple);
  t.parts_ = intern({ElemType::F32, {}, std::move(elements)});
  return t;
}

ElemType Type::elem() const { return parts_ ? parts(parts_).elem : ElemType::F32; }

const std::vector<std::string>& Type::dims() const {
  static const std::vector<std::string> none;
  return parts_ ? parts(parts_).dims : none;
}

const std::vector<TypeKind>& Type::elements() const {
  static const std::vector<TypeKind> none;
  return parts_ ? parts(parts_).elements : none;
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
      std::string s = std::string("tensor<") + elem_type_name(t.elem()) + ">[";
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

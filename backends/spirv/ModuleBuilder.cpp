// ModuleBuilder: instruction encoding, deduplication and section order.
#include "backends/spirv/ModuleBuilder.h"

#include <cstring>
#include <stdexcept>

namespace attn::spirv {

namespace {
uint32_t word(spv::Op op) { return static_cast<uint32_t>(op); }
template <class E>
uint32_t w(E e) {
  return static_cast<uint32_t>(e);
}
}  // namespace

ModuleBuilder::ModuleBuilder(uint32_t version) : version_(version) {}

void ModuleBuilder::emit(std::vector<uint32_t>& out, spv::Op op, const std::vector<uint32_t>& operands) {
  out.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | word(op));
  out.insert(out.end(), operands.begin(), operands.end());
}

std::vector<uint32_t> ModuleBuilder::string_words(const std::string& s) {
  // Null-terminated UTF-8, padded to a whole word.
  std::vector<uint32_t> out(s.size() / 4 + 1, 0);
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

void ModuleBuilder::capability(spv::Capability c) {
  std::vector<uint32_t> probe;
  emit(probe, spv::Op::OpCapability, {w(c)});
  for (size_t i = 0; i < capabilities_.size(); i += 2)
    if (capabilities_[i + 1] == w(c)) return;
  capabilities_.insert(capabilities_.end(), probe.begin(), probe.end());
}

void ModuleBuilder::extension(const std::string& name) {
  emit(extensions_, spv::Op::OpExtension, string_words(name));
}

Id ModuleBuilder::import_ext(const std::string& name) {
  auto it = imported_.find(name);
  if (it != imported_.end()) return it->second;
  Id r = id();
  std::vector<uint32_t> ops{r};
  for (uint32_t x : string_words(name)) ops.push_back(x);
  emit(imports_, spv::Op::OpExtInstImport, ops);
  imported_[name] = r;
  return r;
}

void ModuleBuilder::memory_model(spv::AddressingModel a, spv::MemoryModel m) {
  memory_model_.clear();
  emit(memory_model_, spv::Op::OpMemoryModel, {w(a), w(m)});
}

void ModuleBuilder::entry_point(spv::ExecutionModel model, Id fn, const std::string& name,
                                const std::vector<Id>& interface) {
  std::vector<uint32_t> ops{w(model), fn};
  for (uint32_t x : string_words(name)) ops.push_back(x);
  ops.insert(ops.end(), interface.begin(), interface.end());
  emit(entry_points_, spv::Op::OpEntryPoint, ops);
}

void ModuleBuilder::execution_mode(Id fn, spv::ExecutionMode mode, const std::vector<uint32_t>& literals) {
  std::vector<uint32_t> ops{fn, w(mode)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  emit(modes_, spv::Op::OpExecutionMode, ops);
}

void ModuleBuilder::name(Id target, const std::string& n) {
  std::vector<uint32_t> ops{target};
  for (uint32_t x : string_words(n)) ops.push_back(x);
  emit(names_, spv::Op::OpName, ops);
}

void ModuleBuilder::decorate(Id target, spv::Decoration d, const std::vector<uint32_t>& literals) {
  std::vector<uint32_t> ops{target, w(d)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  emit(annotations_, spv::Op::OpDecorate, ops);
}

void ModuleBuilder::member_decorate(Id type, uint32_t member, spv::Decoration d,
                                    const std::vector<uint32_t>& literals) {
  std::vector<uint32_t> ops{type, member, w(d)};
  ops.insert(ops.end(), literals.begin(), literals.end());
  emit(annotations_, spv::Op::OpMemberDecorate, ops);
}

Id ModuleBuilder::type(spv::Op op, const std::vector<uint32_t>& operands) {
  std::vector<uint32_t> key{word(op)};
  key.insert(key.end(), operands.begin(), operands.end());
  auto it = types_.find(key);
  if (it != types_.end()) return it->second;
  Id r = id();
  std::vector<uint32_t> ops{r};
  ops.insert(ops.end(), operands.begin(), operands.end());
  emit(globals_, op, ops);
  types_[key] = r;
  return r;
}

Id ModuleBuilder::type_void() { return type(spv::Op::OpTypeVoid, {}); }
Id ModuleBuilder::type_bool() { return type(spv::Op::OpTypeBool, {}); }
Id ModuleBuilder::type_int(uint32_t bits, bool is_signed) {
  return type(spv::Op::OpTypeInt, {bits, is_signed ? 1u : 0u});
}
Id ModuleBuilder::type_float(uint32_t bits) { return type(spv::Op::OpTypeFloat, {bits}); }
Id ModuleBuilder::type_vector(Id elem, uint32_t count) { return type(spv::Op::OpTypeVector, {elem, count}); }
Id ModuleBuilder::type_pointer(spv::StorageClass sc, Id pointee) {
  return type(spv::Op::OpTypePointer, {w(sc), pointee});
}
Id ModuleBuilder::type_array(Id elem, uint32_t length) {
  return type(spv::Op::OpTypeArray, {elem, const_uint(length)});
}
Id ModuleBuilder::type_function(Id ret, const std::vector<Id>& params) {
  std::vector<uint32_t> ops{ret};
  ops.insert(ops.end(), params.begin(), params.end());
  return type(spv::Op::OpTypeFunction, ops);
}

Id ModuleBuilder::type_runtime_array(Id elem) {
  // Not deduplicated: each carries its own ArrayStride decoration.
  Id r = id();
  emit(globals_, spv::Op::OpTypeRuntimeArray, {r, elem});
  return r;
}

Id ModuleBuilder::type_struct(const std::vector<Id>& members) {
  Id r = id();
  std::vector<uint32_t> ops{r};
  ops.insert(ops.end(), members.begin(), members.end());
  emit(globals_, spv::Op::OpTypeStruct, ops);
  return r;
}

Id ModuleBuilder::constant(spv::Op op, Id t, const std::vector<uint32_t>& operands) {
  std::vector<uint32_t> key{word(op), t};
  key.insert(key.end(), operands.begin(), operands.end());
  auto it = constants_.find(key);
  if (it != constants_.end()) return it->second;
  Id r = id();
  std::vector<uint32_t> ops{t, r};
  ops.insert(ops.end(), operands.begin(), operands.end());
  emit(globals_, op, ops);
  constants_[key] = r;
  return r;
}

Id ModuleBuilder::const_int(int32_t v) {
  return constant(spv::Op::OpConstant, type_int(32, true), {static_cast<uint32_t>(v)});
}
Id ModuleBuilder::const_uint(uint32_t v) { return constant(spv::Op::OpConstant, type_int(32, false), {v}); }
Id ModuleBuilder::const_float(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return constant(spv::Op::OpConstant, type_float(32), {bits});
}
Id ModuleBuilder::const_bool(bool v) {
  return constant(v ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, type_bool(), {});
}

Id ModuleBuilder::global_variable(Id pointer_type, spv::StorageClass sc) {
  Id r = id();
  emit(globals_, spv::Op::OpVariable, {pointer_type, r, w(sc)});
  return r;
}

Id ModuleBuilder::begin_function(Id ret, Id fn_type, spv::FunctionControlMask control) {
  if (in_function_) throw std::logic_error("internal error: nested SPIR-V function");
  in_function_ = true;
  fn_head_.clear();
  fn_vars_.clear();
  fn_body_.clear();
  Id fn = id();
  emit(fn_head_, spv::Op::OpFunction, {ret, fn, w(control), fn_type});
  block_ = id();
  emit(fn_head_, spv::Op::OpLabel, {block_});
  return fn;
}

void ModuleBuilder::end_function() {
  functions_.insert(functions_.end(), fn_head_.begin(), fn_head_.end());
  functions_.insert(functions_.end(), fn_vars_.begin(), fn_vars_.end());
  functions_.insert(functions_.end(), fn_body_.begin(), fn_body_.end());
  emit(functions_, spv::Op::OpFunctionEnd, {});
  in_function_ = false;
  block_ = 0;
}

Id ModuleBuilder::local_variable(Id pointer_type) {
  Id r = id();
  emit(fn_vars_, spv::Op::OpVariable, {pointer_type, r, w(spv::StorageClass::Function)});
  return r;
}

void ModuleBuilder::begin_block(Id label) {
  emit(fn_body_, spv::Op::OpLabel, {label});
  block_ = label;
}

Id ModuleBuilder::op(spv::Op o, Id result_type, const std::vector<uint32_t>& operands) {
  Id r = id();
  std::vector<uint32_t> ops{result_type, r};
  ops.insert(ops.end(), operands.begin(), operands.end());
  emit(fn_body_, o, ops);
  return r;
}

void ModuleBuilder::op_void(spv::Op o, const std::vector<uint32_t>& operands) { emit(fn_body_, o, operands); }

std::vector<uint32_t> ModuleBuilder::words() const {
  std::vector<uint32_t> out{spv::MagicNumber, version_, 0 /* generator */, next_id_, 0};
  for (const auto* s : {&capabilities_, &extensions_, &imports_, &memory_model_, &entry_points_, &modes_,
                        &names_, &annotations_, &globals_, &functions_})
    out.insert(out.end(), s->begin(), s->end());
  return out;
}

}  // namespace attn::spirv

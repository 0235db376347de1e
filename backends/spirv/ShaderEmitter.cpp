// ShaderEmitter: the declarations and helpers the forward and backward shaders share.
#include "backends/spirv/ShaderEmitter.h"

#include <stdexcept>

#include "backends/spirv/SpirvExpr.h"
#include "codegen/KernelIR.h"

namespace attn::spirv {

using spv::Op;
using spv::StorageClass;

Ssbo ShaderEmitter::ssbo(uint32_t binding, Id elem, uint32_t stride, const std::string& name, bool readonly) {
  Id rt = m_.type_runtime_array(elem);
  m_.decorate(rt, spv::Decoration::ArrayStride, {stride});
  Id st = m_.type_struct({rt});
  m_.decorate(st, spv::Decoration::Block);
  m_.member_decorate(st, 0, spv::Decoration::Offset, {0});
  if (readonly) m_.member_decorate(st, 0, spv::Decoration::NonWritable);
  Ssbo s;
  s.var = m_.global_variable(m_.type_pointer(StorageClass::StorageBuffer, st), StorageClass::StorageBuffer);
  s.elem = elem;
  s.elem_ptr = m_.type_pointer(StorageClass::StorageBuffer, elem);
  m_.decorate(s.var, spv::Decoration::DescriptorSet, {0});
  m_.decorate(s.var, spv::Decoration::Binding, {binding});
  m_.name(s.var, name);
  if (lists_all_globals()) interface_.push_back(s.var);
  return s;
}

void ShaderEmitter::declare_types(bool subgroups) {
  m_.capability(spv::Capability::Shader);
  if (c_.f16_io) m_.capability(spv::Capability::StorageBuffer16BitAccess);
  if (subgroups) {
    m_.capability(spv::Capability::GroupNonUniform);
    m_.capability(spv::Capability::GroupNonUniformShuffle);
  }
  glsl_ = m_.import_ext("GLSL.std.450");
  m_.memory_model(spv::AddressingModel::Logical, spv::MemoryModel::GLSL450);
  t_void_ = m_.type_void();
  t_bool_ = m_.type_bool();
  t_i32_ = m_.type_int(32, true);
  t_u32_ = m_.type_int(32, false);
  t_f32_ = m_.type_float(32);
}

void ShaderEmitter::declare_arguments() {
  args_ = ssbo(kArgs, t_i32_, 4, "Args", true);
  err_ = ssbo(kError, t_i32_, 4, "Error", false);
  uint32_t binding = kFirstBuffer;
  for (const KernelArg& a : ir_.args)
    if (a.kind == KernelArg::Kind::Buffer)
      bufs_[a.name] = ssbo(binding++, a.elem == ElemType::F32 ? t_f32_ : t_i32_, 4, a.name, true);
}

void ShaderEmitter::declare_builtins() {
  // Push constants: B, Hq, Hkv, Lq, Lkv.
  std::vector<Id> members(kPushWords, t_i32_);
  Id pc = m_.type_struct(members);
  m_.decorate(pc, spv::Decoration::Block);
  for (uint32_t i = 0; i < kPushWords; ++i) m_.member_decorate(pc, i, spv::Decoration::Offset, {4 * i});
  pc_ = m_.global_variable(m_.type_pointer(StorageClass::PushConstant, pc), StorageClass::PushConstant);
  m_.name(pc_, "Shape");
  if (lists_all_globals()) interface_.push_back(pc_);

  Id uvec3 = m_.type_vector(t_u32_, 3);
  wg_id_ = m_.global_variable(m_.type_pointer(StorageClass::Input, uvec3), StorageClass::Input);
  m_.decorate(wg_id_, spv::Decoration::BuiltIn, {w(spv::BuiltIn::WorkgroupId)});
  lid_ = m_.global_variable(m_.type_pointer(StorageClass::Input, t_u32_), StorageClass::Input);
  m_.decorate(lid_, spv::Decoration::BuiltIn, {w(spv::BuiltIn::LocalInvocationIndex)});
  interface_.push_back(wg_id_);
  interface_.push_back(lid_);
}

void ShaderEmitter::declare_error_record() {
  err_seen_ = m_.local_variable(p_fn_i32_);
  store(err_seen_, ci(0));
  for (int i = 0; i < kErrorWords - 1; ++i) {
    err_record_.push_back(m_.local_variable(p_fn_i32_));
    store(err_record_.back(), ci(0));
  }
}

void ShaderEmitter::declare_function_pointers() {
  p_fn_f32_ = m_.type_pointer(StorageClass::Function, t_f32_);
  p_fn_i32_ = m_.type_pointer(StorageClass::Function, t_i32_);
}

Id ShaderEmitter::ext(GLSLstd450 f, Id type, std::vector<Id> a) {
  std::vector<uint32_t> ops{glsl_, static_cast<uint32_t>(f)};
  ops.insert(ops.end(), a.begin(), a.end());
  return m_.op(Op::OpExtInst, type, ops);
}

Id ShaderEmitter::var_f32(float init) {
  Id v = m_.local_variable(p_fn_f32_);
  store(v, cf(init));
  return v;
}

Id ShaderEmitter::load_io(const Ssbo& s, Id index) {
  Id x = load(s.elem, ssbo_ptr(s, index));
  return c_.f16_io ? m_.op(Op::OpFConvert, t_f32_, {x}) : x;
}

Id ShaderEmitter::f32_array(int n) {
  return m_.local_variable(
      m_.type_pointer(StorageClass::Function, m_.type_array(t_f32_, static_cast<uint32_t>(n))));
}

Id ShaderEmitter::shape(int i) {
  Id p_pc = m_.type_pointer(StorageClass::PushConstant, t_i32_);
  return load(t_i32_, m_.op(Op::OpAccessChain, p_pc, {pc_, ci(i)}));
}

void ShaderEmitter::loop(Id start, Id end, Id step, const std::function<void(Id)>& body) {
  Id var = m_.local_variable(p_fn_i32_);
  store(var, start);
  Id header = m_.id(), inner = m_.id(), cont = m_.id(), merge = m_.id();
  m_.op_void(Op::OpBranch, {header});
  m_.begin_block(header);
  Id i = load(t_i32_, var);
  Id cond = ilt(i, end);
  // On CPU devices unrolling only multiplies llvmpipe's JIT time.
  m_.op_void(
      Op::OpLoopMerge,
      {merge, cont, w(c_.unroll_chunks ? spv::LoopControlMask::MaskNone : spv::LoopControlMask::DontUnroll)});
  m_.op_void(Op::OpBranchConditional, {cond, inner, merge});
  m_.begin_block(inner);
  body(i);
  m_.op_void(Op::OpBranch, {cont});
  m_.begin_block(cont);
  store(var, iadd(load(t_i32_, var), step));
  m_.op_void(Op::OpBranch, {header});
  m_.begin_block(merge);
}

void ShaderEmitter::publish_error() {
  Id seen = m_.op(Op::OpINotEqual, t_bool_, {load(t_i32_, err_seen_), ci(0)});
  emit_if(m_, seen, [&] {
    Id scope = m_.const_uint(w(spv::Scope::Device)), relaxed = m_.const_uint(0);
    Id old = m_.op(Op::OpAtomicCompareExchange, t_i32_,
                   {ssbo_ptr(err_, ci(0)), scope, relaxed, relaxed, ci(1), ci(0)});
    emit_if(m_, m_.op(Op::OpIEqual, t_bool_, {old, ci(0)}), [&] {
      for (int i = 0; i < kErrorWords - 1; ++i)
        store(ssbo_ptr(err_, ci(i + 1)), load(t_i32_, err_record_[i]));
    });
  });
}

void ShaderEmitter::note_error(Id bad, int buffer, int dim, Id index, Id size) {
  Id seen = load(t_i32_, err_seen_);
  Id first = land(bad, m_.op(Op::OpIEqual, t_bool_, {seen, ci(0)}));
  store(err_seen_, sel(t_i32_, bad, ci(1), seen));
  Id vals[] = {ci(buffer), ci(dim), index, size, b_at_, h_, q_at_, kv_};
  for (int i = 0; i < kErrorWords - 1; ++i)
    store(err_record_[i], sel(t_i32_, first, vals[i], load(t_i32_, err_record_[i])));
}

Id ShaderEmitter::buffer_extent(const std::string& name, int dim) {
  for (size_t i = 0; i < ir_.args.size(); ++i)
    if (ir_.args[i].name == name) return load(t_i32_, ssbo_ptr(args_, ci(arg_offsets_[i] + dim)));
  throw std::logic_error("internal error: the extent of unknown buffer '" + name + "'");
}

std::pair<Id, Id> ShaderEmitter::buffer_index(const std::string& name, const std::vector<Id>& indices) {
  int ordinal = 0, pos = 0;
  for (size_t i = 0; i < ir_.args.size(); ++i) {
    if (ir_.args[i].name == name) {
      pos = static_cast<int>(i);
      break;
    }
    if (ir_.args[i].kind == KernelArg::Kind::Buffer) ++ordinal;
  }
  Id flat = ci(0), ok = m_.const_bool(true);
  for (size_t d = 0; d < indices.size(); ++d) {
    Id size = load(t_i32_, ssbo_ptr(args_, ci(arg_offsets_[pos] + static_cast<int>(d))));
    Id x = indices[d];
    Id in = land(m_.op(Op::OpSGreaterThanEqual, t_bool_, {x, ci(0)}), ilt(x, size));
    note_error(m_.op(Op::OpLogicalNot, t_bool_, {in}), ordinal, static_cast<int>(d), x, size);
    ok = land(ok, in);
    flat = iadd(imul(flat, size), x);
  }
  return {flat, ok};
}

Id ShaderEmitter::load_buffer(const std::string& name, const std::vector<Id>& indices) {
  const Ssbo& s = bufs_.at(name);
  auto [flat, ok] = buffer_index(name, indices);
  return load(s.elem, ssbo_ptr(s, sel(t_i32_, ok, flat, ci(0))));
}

std::map<std::string, Id> ShaderEmitter::load_scalars() {
  std::map<std::string, Id> scalars;
  int offset = 0;
  for (const KernelArg& a : ir_.args) {
    arg_offsets_.push_back(offset);
    if (a.kind == KernelArg::Kind::Buffer) {
      offset += static_cast<int>(a.dims.size());
      continue;
    }
    Id word = load(t_i32_, ssbo_ptr(args_, ci(offset++)));
    Id v = a.elem == ElemType::F32    ? m_.op(Op::OpBitcast, t_f32_, {word})
           : a.elem == ElemType::Bool ? m_.op(Op::OpINotEqual, t_bool_, {word, ci(0)})
                                      : word;
    scalars[a.name] = v;
  }
  return scalars;
}

}  // namespace attn::spirv

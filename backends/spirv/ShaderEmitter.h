// What every attention compute shader of the SPIR-V backend shares: the module builder, the scalar
// types, storage buffers, the argument words and the tensor arguments with their bounds-checked
// loads and error record, structured loops, and small instruction helpers. The forward
// (SpirvKernel.cpp) and the backward (SpirvBackward.cpp) emitters derive from it; each calls the
// declare_* steps in its own order (the order fixes the module's id numbering).
#pragma once

#include <spirv/unified1/GLSL.std.450.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backends/spirv/ModuleBuilder.h"
#include "backends/spirv/SpirvKernel.h"

namespace attn::spirv {

template <class E>
uint32_t w(E e) {
  return static_cast<uint32_t>(e);
}

// A storage buffer: struct { T data[]; } at one binding.
struct Ssbo {
  Id var = 0, elem = 0, elem_ptr = 0;
};

class ShaderEmitter {
 protected:
  ShaderEmitter(const KernelIR& ir, const SpirvConfig& c) : m_(c.spirv_version), ir_(ir), c_(c) {}

  bool lists_all_globals() const { return c_.spirv_version >= 0x00010400; }

  Ssbo ssbo(uint32_t binding, Id elem, uint32_t stride, const std::string& name, bool readonly);

  /// Capability Shader (and 16-bit storage with f16 I/O), GLSL.std.450, the memory model, and the
  /// void, bool, i32, u32 and f32 types.
  void declare_types(bool subgroups);
  /// The argument words, the error record and one binding per tensor argument from kFirstBuffer.
  void declare_arguments();
  /// The push constants (B, Hq, Hkv, Lq, Lkv), WorkgroupId and LocalInvocationIndex.
  void declare_builtins();
  /// The error flag and record of this invocation, as Function variables (in the entry block).
  void declare_error_record();
  /// The Function-storage pointer types of f32 and i32.
  void declare_function_pointers();

  // --- small instruction helpers ---------------------------------------------------------------
  Id ci(int v) { return m_.const_int(v); }
  Id cf(float v) { return m_.const_float(v); }
  Id iadd(Id a, Id b) { return m_.op(spv::Op::OpIAdd, t_i32_, {a, b}); }
  Id imul(Id a, Id b) { return m_.op(spv::Op::OpIMul, t_i32_, {a, b}); }
  Id idiv(Id a, Id b) { return m_.op(spv::Op::OpSDiv, t_i32_, {a, b}); }
  Id irem(Id a, Id b) { return m_.op(spv::Op::OpSRem, t_i32_, {a, b}); }
  Id ilt(Id a, Id b) { return m_.op(spv::Op::OpSLessThan, t_bool_, {a, b}); }
  Id land(Id a, Id b) { return m_.op(spv::Op::OpLogicalAnd, t_bool_, {a, b}); }
  Id fadd(Id a, Id b) { return m_.op(spv::Op::OpFAdd, t_f32_, {a, b}); }
  Id fsub(Id a, Id b) { return m_.op(spv::Op::OpFSub, t_f32_, {a, b}); }
  Id fmul(Id a, Id b) { return m_.op(spv::Op::OpFMul, t_f32_, {a, b}); }
  Id sel(Id type, Id c, Id a, Id b) { return m_.op(spv::Op::OpSelect, type, {c, a, b}); }
  Id ext(GLSLstd450 f, Id type, std::vector<Id> a);
  Id load(Id type, Id ptr) { return m_.op(spv::Op::OpLoad, type, {ptr}); }
  void store(Id ptr, Id value) { m_.op_void(spv::Op::OpStore, {ptr, value}); }
  Id var_f32(float init);
  Id ssbo_ptr(const Ssbo& s, Id index) {
    return m_.op(spv::Op::OpAccessChain, s.elem_ptr, {s.var, ci(0), index});
  }
  /// An element of an I/O buffer, as f32.
  Id load_io(const Ssbo& s, Id index);
  /// A Function array of `n` f32.
  Id f32_array(int n);
  /// Word `i` of the push constants.
  Id shape(int i);

  /// for (i = start; i < end; i += step) body(i): a structured loop with its test in the header.
  void loop(Id start, Id end, Id step, const std::function<void(Id)>& body);

  /// Publishes this invocation's first out-of-range index, if any: the first invocation to get
  /// there owns the error record. Deferred to the end so that the loops hold no atomics or
  /// branches (they multiply lavapipe's JIT time).
  void publish_error();
  /// Remembers (buffer, dimension, index, size, b, h, q, kv) the first time `bad` holds.
  void note_error(Id bad, int buffer, int dim, Id index, Id size);
  /// A buffer's run-time extent: the args block holds each buffer's sizes where its words start.
  Id buffer_extent(const std::string& name, int dim);
  /// The row-major element index of `indices` in buffer `name` and whether it is in range (an index
  /// out of range is noted in the error record).
  std::pair<Id, Id> buffer_index(const std::string& name, const std::vector<Id>& indices);
  /// A bounds-checked load of a tensor argument: never reads outside the buffer.
  Id load_buffer(const std::string& name, const std::vector<Id>& indices);
  /// The scalar arguments' values read from the argument words (sets arg_offsets_).
  std::map<std::string, Id> load_scalars();

  ModuleBuilder m_;
  const KernelIR& ir_;
  const SpirvConfig& c_;
  Id glsl_ = 0, t_void_ = 0, t_bool_ = 0, t_i32_ = 0, t_u32_ = 0, t_f32_ = 0;
  Ssbo args_, err_;
  std::map<std::string, Ssbo> bufs_;
  Id pc_ = 0, wg_id_ = 0, lid_ = 0, p_fn_f32_ = 0, p_fn_i32_ = 0;
  /// The point the error record names: b, h, q, kv (i32 values).
  Id b_ = 0, h_ = 0, qi_ = 0, kv_ = 0;
  // `b` and `q` as the kernel sees them: b_ and qi_ (the workgroup's entry and row) moved by the
  // call's place (push words kPushB0, kPushQ0); what the error record reports.
  Id b_at_ = 0, q_at_ = 0;
  Id q_len_ = 0, kv_len_ = 0;  // the call's lengths (Lq, Lkv), where a shader has read them
  std::vector<int> arg_offsets_;
  Id err_seen_ = 0;
  std::vector<Id> err_record_;
  std::vector<Id> interface_;
};

}  // namespace attn::spirv

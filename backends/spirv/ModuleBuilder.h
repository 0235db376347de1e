// A SPIR-V module builder: ids, deduplicated types and constants, decorations, functions, blocks
// and instructions, emitted as binary words. No text is ever concatenated into a module.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attn::spirv {

/// A SPIR-V result id (0 is never a valid id).
using Id = uint32_t;

/// Builds one module section by section; `words()` assembles them in the order the spec demands.
class ModuleBuilder {
 public:
  /// `version` is the SPIR-V version word, e.g. 0x00010300 for 1.3.
  explicit ModuleBuilder(uint32_t version);

  /// A fresh id.
  Id id() { return next_id_++; }

  // --- module-level declarations -----------------------------------------------------------
  void capability(spv::Capability c);
  void extension(const std::string& name);
  /// OpExtInstImport (deduplicated by name).
  Id import_ext(const std::string& name);
  void memory_model(spv::AddressingModel a, spv::MemoryModel m);
  void entry_point(spv::ExecutionModel model, Id fn, const std::string& name,
                   const std::vector<Id>& interface);
  void execution_mode(Id fn, spv::ExecutionMode mode, const std::vector<uint32_t>& literals);
  /// OpName: debug names make the disassembly readable.
  void name(Id target, const std::string& name);
  void decorate(Id target, spv::Decoration d, const std::vector<uint32_t>& literals = {});
  void member_decorate(Id type, uint32_t member, spv::Decoration d,
                       const std::vector<uint32_t>& literals = {});

  // --- types (deduplicated, except structs which carry their own decorations) ----------------
  Id type_void();
  Id type_bool();
  Id type_int(uint32_t bits, bool is_signed);
  Id type_float(uint32_t bits);
  Id type_vector(Id elem, uint32_t count);
  Id type_pointer(spv::StorageClass sc, Id pointee);
  Id type_array(Id elem, uint32_t length);
  Id type_runtime_array(Id elem);
  Id type_struct(const std::vector<Id>& members);
  Id type_function(Id ret, const std::vector<Id>& params = {});

  // --- constants (deduplicated) ----------------------------------------------------------------
  Id const_int(int32_t v);    ///< 32-bit signed
  Id const_uint(uint32_t v);  ///< 32-bit unsigned
  Id const_float(float v);
  Id const_bool(bool v);

  /// A module-scope OpVariable.
  Id global_variable(Id pointer_type, spv::StorageClass sc);

  // --- functions and blocks --------------------------------------------------------------------
  /// Starts a function and its entry block; returns the function's id.
  Id begin_function(Id ret, Id fn_type,
                    spv::FunctionControlMask control = spv::FunctionControlMask::MaskNone);
  void end_function();
  /// A Function-storage variable, hoisted into the entry block as the spec requires.
  Id local_variable(Id pointer_type);
  /// Starts block `label` (a label id from id()); the previous block must have been terminated.
  void begin_block(Id label);
  Id current_block() const { return block_; }

  /// An instruction with a result; returns the result id.
  Id op(spv::Op op, Id result_type, const std::vector<uint32_t>& operands);
  /// An instruction without result type or result.
  void op_void(spv::Op op, const std::vector<uint32_t>& operands);

  /// The finished module.
  std::vector<uint32_t> words() const;

 private:
  static void emit(std::vector<uint32_t>& out, spv::Op op, const std::vector<uint32_t>& operands);
  static std::vector<uint32_t> string_words(const std::string& s);
  Id type(spv::Op op, const std::vector<uint32_t>& operands);
  Id constant(spv::Op op, Id type, const std::vector<uint32_t>& operands);

  uint32_t version_;
  Id next_id_ = 1;
  std::vector<uint32_t> capabilities_, extensions_, imports_, memory_model_, entry_points_, modes_, names_,
      annotations_, globals_, functions_;
  std::map<std::vector<uint32_t>, Id> types_, constants_;
  std::map<std::string, Id> imported_;
  // The function being built: its header, its entry-block variables, and the rest.
  std::vector<uint32_t> fn_head_, fn_vars_, fn_body_;
  Id block_ = 0;
  bool in_function_ = false;
};

}  // namespace attn::spirv

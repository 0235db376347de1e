// A shared object loaded from bytes (RTLD_LOCAL) through a private temporary file, never in place.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn {

/// A dlopen'ed shared object; dlclose'd on destruction.
class SharedObject {
 public:
  /// Writes `bytes` to a fresh private file under temp_root(), dlopens it RTLD_NOW|RTLD_LOCAL and
  /// unlinks the file. Each load has its own path, so the dynamic loader never hands back an older
  /// object loaded under the same name. Throws std::runtime_error with dlerror()'s message.
  static std::shared_ptr<SharedObject> load(const std::vector<uint8_t>& bytes);
  /// dlclose()s the object.
  ~SharedObject();
  SharedObject(const SharedObject&) = delete;
  SharedObject& operator=(const SharedObject&) = delete;
  /// The address of `name`, or nullptr.
  void* symbol(const std::string& name) const;

 private:
  explicit SharedObject(void* handle) : handle_(handle) {}
  void* handle_;
};

}  // namespace attn

// Arena: the memory of a module's expressions, given back all at once with the module.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace attn {

/// Bump allocation for the AST's expressions and their operand arrays. An editor's analysis holds
/// one expression per ~7 bytes of text: malloc would add a header to each and round it up, and
/// scatter them among the parser's freed memory, which then stays resident. What lives here is
/// destroyed by its owner (see ExprPtr); the arena only frees the blocks.
class Arena {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  void* allocate(size_t size, size_t align) {
    size_t at = (used_ + align - 1) & ~(align - 1);
    if (blocks_.empty() || at + size > capacity_) {
      // Blocks double, so that a small module (a stdlib one) stays small and a large one needs
      // few blocks; a block larger than kMaxBlock is only for an object larger than that.
      capacity_ = std::max(size, blocks_.empty() ? kFirstBlock : std::min(2 * capacity_, kMaxBlock));
      blocks_.emplace_back(new std::byte[capacity_]);
      at = 0;
    }
    used_ = at + size;
    return blocks_.back().get() + at;
  }

  template <class T, class... Args>
  T* make(Args&&... args) {
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

 private:
  static constexpr size_t kFirstBlock = size_t{1} << 10, kMaxBlock = size_t{64} << 10;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  size_t used_ = 0, capacity_ = 0;
};

}  // namespace attn

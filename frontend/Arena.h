// Arena: the memory of a module's expressions, given back all at once with the module.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

/// A fixed array in an Arena, for the operands of an expression (the parser knows how many when it
/// makes one): a pointer and a 32-bit size, no capacity and no malloc block. It destroys its
/// elements; the arena keeps their memory.
template <class T>
class ArenaArray {
 public:
  ArenaArray() = default;
  /// Moves `n` items from `items` into `arena`.
  ArenaArray(Arena& arena, T* items, size_t n)
      : data_(n ? static_cast<T*>(arena.allocate(n * sizeof(T), alignof(T))) : nullptr),
        size_(static_cast<uint32_t>(n)) {
    for (size_t i = 0; i < n; ++i) new (data_ + i) T(std::move(items[i]));
  }
  ArenaArray(ArenaArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  ArenaArray& operator=(ArenaArray&& o) noexcept {
    if (this != &o) {
      destroy();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  ~ArenaArray() { destroy(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  void destroy() {
    for (uint32_t i = 0; i < size_; ++i) data_[i].~T();
    size_ = 0;
  }

  T* data_ = nullptr;
  uint32_t size_ = 0;
};

}  // namespace attn

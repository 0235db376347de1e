// NodeList: the children of an AST node, a vector in 16 bytes instead of 24.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <utility>

namespace attn {

/// A growable array with a 32-bit size and capacity, move-only. A call's arguments and a let's
/// bindings share a 16-byte slot of their expression with a name's reference, and an editor's
/// analysis holds one expression per ~7 bytes of text: a std::vector's 24 bytes would make every
/// expression 8 bytes larger. It offers what the AST's users use.
template <class T>
class NodeList {
 public:
  NodeList() = default;
  NodeList(NodeList&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)) {}
  NodeList& operator=(NodeList&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }
  ~NodeList() { release(); }

  void push_back(T x) {
    if (size_ == capacity_) grow();
    new (data_ + size_) T(std::move(x));
    ++size_;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

 private:
  void grow() {
    uint32_t capacity = capacity_ ? 2 * capacity_ : 1;
    T* data = std::allocator<T>().allocate(capacity);
    for (uint32_t i = 0; i < size_; ++i) {
      new (data + i) T(std::move(data_[i]));
      data_[i].~T();
    }
    if (data_) std::allocator<T>().deallocate(data_, capacity_);
    data_ = data;
    capacity_ = capacity;
  }

  void release() {
    for (uint32_t i = 0; i < size_; ++i) data_[i].~T();
    if (data_) std::allocator<T>().deallocate(data_, capacity_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  T* data_ = nullptr;
  uint32_t size_ = 0, capacity_ = 0;
};

}  // namespace attn

// The storage of a proving key's big arrays (points, coefficients): a vector-like array that either owns
// its elements on the heap, as std::vector would, or is a view of memory that something else owns and
// keeps alive, such as a shared key image that several worker processes map (io/key_image.hpp).
//
// Why not std::vector: a vector always owns and initializes its elements, so a process could only use a
// key that another process decoded by copying it (a second 45 GB at a 32 GiB PoRep). A view lets every
// worker process use the one copy in shared memory, and a restarted worker use it without reading the
// key file again.
//
// Copies are deep (into owned memory), as a vector's are; moves take the storage, view or not. Only owned
// arrays grow or shrink.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace cuzk::io {

// Where a key reader puts its big arrays: the heap when none is given, or a key image being built
// (io/key_image.hpp). allocate() returns memory for `bytes` bytes aligned to `align`, and the owner that
// keeps it alive. Thread-safe: readers allocate several arrays at once.
class ArraySource {
 public:
  virtual ~ArraySource() = default;
  virtual std::pair<void*, std::shared_ptr<void>> allocate(std::size_t bytes, std::size_t align) = 0;
};

template <class T>
class HostArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "key arrays hold plain data: they are shared between processes as bytes");

 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  HostArray() = default;
  // n value-initialized elements, owned (as std::vector<T>(n)).
  explicit HostArray(std::size_t n) { resize(n); }
  HostArray(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  HostArray(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: a vector's stand-in
  template <class It>
  HostArray(It first, It last) {
    assign(first, last);
  }
  // n value-initialized elements in memory from `source` (owned when source is null).
  static HostArray make(std::size_t n, ArraySource* source) {
    if (!source) return HostArray(n);
    auto [p, keeper] = source->allocate(n * sizeof(T), alignof(T));
    T* data = static_cast<T*>(p);
    std::uninitialized_value_construct_n(data, n);
    return view(data, n, std::move(keeper));
  }
  // The n elements at `data`, which `keeper` keeps alive; not copied.
  static HostArray view(T* data, std::size_t n, std::shared_ptr<void> keeper) {
    HostArray a;
    a.data_ = data;
    a.size_ = a.capacity_ = n;
    a.keeper_ = std::move(keeper);
    a.owned_ = false;
    return a;
  }

  HostArray(const HostArray& o) { assign(o.begin(), o.end()); }
  HostArray& operator=(const HostArray& o) {
    if (this != &o) {
      HostArray copy(o);
      swap(copy);
    }
    return *this;
  }
  HostArray(HostArray&& o) noexcept { swap(o); }
  HostArray& operator=(HostArray&& o) noexcept {
    HostArray moved(std::move(o));
    swap(moved);
    return *this;
  }
  ~HostArray() { release(); }

  void swap(HostArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
    std::swap(keeper_, o.keeper_);
    std::swap(owned_, o.owned_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& at(std::size_t i) {
    if (i >= size_) throw std::out_of_range("HostArray::at");
    return data_[i];
  }
  const T& at(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("HostArray::at");
    return data_[i];
  }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  operator std::span<T>() { return {data_, size_}; }              // NOLINT: as a vector converts
  operator std::span<const T>() const { return {data_, size_}; }  // NOLINT
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

  // Whether the elements are a view of memory owned elsewhere (a shared key image).
  bool is_view() const { return !owned_; }

  // Growing and shrinking: owned arrays only (a view's memory is not ours to resize).
  void reserve(std::size_t n) {
    require_owned("reserve");
    if (n > capacity_) reallocate(n);
  }
  void resize(std::size_t n) {
    require_owned("resize");
    if (n > capacity_) reallocate(n);
    if (n > size_) std::uninitialized_value_construct_n(data_ + size_, n - size_);
    size_ = n;
  }
  void push_back(const T& v) {
    require_owned("push_back");
    if (size_ == capacity_) {
      const T copy = v;  // v may live in this array
      reallocate(std::max<std::size_t>(8, 2 * capacity_));
      data_[size_++] = copy;
      return;
    }
    data_[size_++] = v;
  }
  template <class It>
  void assign(It first, It last) {
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    if (!owned_) release();  // a view is replaced by owned storage
    if (n > capacity_) {
      release();
      reallocate(n);
    }
    std::copy(first, last, data_);
    size_ = n;
  }
  void clear() {
    if (owned_)
      size_ = 0;
    else
      release();
  }

  bool operator==(const HostArray& o) const {
    return size_ == o.size_ && std::equal(begin(), end(), o.begin());
  }

 private:
  static constexpr std::align_val_t kAlign{std::max<std::size_t>(alignof(T), 64)};

  void require_owned(const char* what) const {
    if (!owned_) throw std::logic_error(std::string("HostArray::") + what + " on a view of shared memory");
  }
  void reallocate(std::size_t n) {
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T), kAlign));
    if (size_) std::memcpy(static_cast<void*>(fresh), data_, size_ * sizeof(T));
    const std::size_t keep = size_;
    release();
    data_ = fresh;
    size_ = keep;
    capacity_ = n;
  }
  void release() noexcept {
    if (owned_ && data_) ::operator delete(data_, kAlign);
    data_ = nullptr;
    size_ = capacity_ = 0;
    keeper_.reset();
    owned_ = true;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
  std::shared_ptr<void> keeper_;  // a view's owner; empty when owned
  bool owned_ = true;
};

}  // namespace cuzk::io

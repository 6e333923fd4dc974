// The storage of an assignment: a vector of field elements whose resize() leaves the new elements
// uninitialised. Witness synthesis writes every value of arrays sized in advance (4 GB per 32 GiB PoRep
// partition); zeroing them first cost a pass over all of it, on one thread.
#pragma once

#include <memory>
#include <vector>

#include "gadgets/variable.hpp"

namespace cuzk::gadgets {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;  // default-, not value-initialised
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<std::allocator<U>>::construct(*reinterpret_cast<std::allocator<U>*>(this), p,
                                                        std::forward<Args>(args)...);
  }
};

using Assignment = std::vector<Fr, DefaultInitAllocator<Fr>>;

}  // namespace cuzk::gadgets

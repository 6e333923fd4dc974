// Field elements from the operating system's CSPRNG (getrandom), for blinding factors and setup.
#pragma once

#include <sys/random.h>

#include <cstdint>
#include <stdexcept>

#include "ff/encoding.hpp"

namespace cuzk::ff {

// A 64-bit generator drawing from getrandom(2); usable with random_element.
struct OsRandom {
  std::uint64_t operator()() {
    std::uint64_t x = 0;
    std::uint8_t* p = reinterpret_cast<std::uint8_t*>(&x);
    std::size_t got = 0;
    while (got < sizeof x) {
      ssize_t r = getrandom(p + got, sizeof x - got, 0);
      if (r < 0) throw std::runtime_error("getrandom failed");
      got += static_cast<std::size_t>(r);
    }
    return x;
  }
};

template <class F>
F random_nonzero_os() {
  OsRandom rng;
  for (;;) {
    F x = random_element<F>(rng);
    if (!x.is_zero()) return x;
  }
}

}  // namespace cuzk::ff

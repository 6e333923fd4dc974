// A 64-bit checksum of device memory, taken on the device: the kept key arrays (io/kept_memory.hpp) are
// checked with it before a replacement worker process proves with them, so memory that a faulting kernel
// wrote over is uploaded again instead of used. The 45 GB of a 32 GiB PoRep key take tens of milliseconds
// at the GPU's memory bandwidth, against seconds to upload them.
//
// Each 64-bit word is mixed with its index (a splitmix64 finaliser, so a swapped or shifted word changes the
// sum) and the mixed words are added: the order of the additions does not matter, so every thread sums its
// own words and the sums are added at the end. Not cryptographic: it catches corruption, not an adversary
// (only this daemon's own processes can write the memory).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"  // CUZK_HD

namespace cuzk::cuda {

CUZK_HD std::uint64_t checksum_mix(std::uint64_t word, std::uint64_t index) {
  std::uint64_t z = word ^ (index * 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The checksum of device[0, bytes): bytes a multiple of 8, device 8-byte aligned. Waits for `stream`.
// Throws CudaError.
std::uint64_t device_checksum(const void* device, std::size_t bytes, cudaStream_t stream);

// The same checksum of host memory (the tests' reference).
std::uint64_t host_checksum(const void* host, std::size_t bytes);

}  // namespace cuzk::cuda

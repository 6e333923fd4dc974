// NTT on the GPU (host-callable API; kernels in gpu.cu).
//
// Radix-2 Gentleman–Sande (DIF: natural → bit-reversed) and Cooley–Tukey (DIT: bit-reversed → natural)
// passes, so the Groth16 H pipeline (iNTT, coset scaling, NTT) never runs a bit-reversal pass: the
// first DIT pass scales each element as it loads it, indexing the twiddle by the bit-reversed position.
// Stages run in multi-stage passes of up to 10 (2^27: 9 + 9 + 9), each one kernel that loads groups of
// elements a stride apart into shared memory, runs its stages there, and writes them back.
// forward() and inverse() bit-reverse first (one tiled, coalesced pass), then run DIT; inverse() folds
// its n^-1 into the first pass' loads.
//
// All twiddles come from one table per domain: T[i] = ω_2N^i for i < N. Then ω_N^e = T[2e],
// ω_N^-e = -T[N - 2e] (as ω_2N^N = -1), and T itself holds the odd-coset shift powers. ω_2N is snarkjs's
// root (5-based) unless the tables are made for another: bellperson's keys fix a 7-based domain, and
// taking its root saves the permutation of a, b, c onto snarkjs's points.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/device_buffer.hpp"
#include "poly/domain.hpp"

namespace cuzk::ntt::gpu {

template <class Fr>
class Tables {
 public:
  Tables(std::size_t log_n, cudaStream_t stream);
  // With ω_2N = `root_2n`, which must have order exactly 2N (std::invalid_argument otherwise).
  Tables(std::size_t log_n, const Fr& root_2n, cudaStream_t stream);
  std::size_t log_n() const { return log_n_; }
  std::size_t n() const { return std::size_t(1) << log_n_; }
  const Fr* omega2n_powers() const { return powers_.data(); }
  const Fr& n_inv() const { return n_inv_; }

 private:
  std::size_t log_n_;
  cuda::DeviceBuffer<Fr> powers_;
  Fr n_inv_;
};

// In place on device memory, natural order in and out.
template <class Fr>
void forward(Fr* data, const Tables<Fr>& t, cudaStream_t stream);
template <class Fr>
void inverse(Fr* data, const Tables<Fr>& t, cudaStream_t stream);

// Values on the domain → values on the odd coset ω_2N·⟨ω_N⟩ (iNTT, ·ω_2N^i, NTT): snarkjs' H basis.
// Natural order in and out, `count` vectors of n elements laid end to end.
template <class Fr>
void to_odd_coset(Fr* data, std::size_t count, const Tables<Fr>& t, cudaStream_t stream);

}  // namespace cuzk::ntt::gpu

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
//
// T takes one element per domain point (4 GiB at 2^27, a third of an 11 GiB card), so the smallest GPU plans
// keep it compact: T[i] = L[i mod 2^l]·U[i >> l] with l = ⌈log N / 2⌉ (2^14 + 2^13 elements at 2^27, 768
// KiB, which the read-only cache holds), one more multiply per twiddle. The NTT kernels are compiled for
// each layout, so the full one runs exactly the code it ran before.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda/device_buffer.hpp"
#include "ntt/table_layout.hpp"
#include "poly/domain.hpp"

namespace cuzk::ntt::gpu {

using ntt::TableLayout;

// The twiddle table as kernels read it: T[i] = ω_2N^i for i < N, from the full table or the compact pair.
template <class Fr>
struct Twiddles {
  const Fr* full = nullptr;  // kFull: T itself
  const Fr* low = nullptr;   // kCompact: ω_2N^i for i < 2^low_log
  const Fr* high = nullptr;  // kCompact: ω_2N^(i·2^low_log) for i < N / 2^low_log
  unsigned low_log = 0;
#ifdef __CUDACC__
  __device__ __forceinline__ Fr at(std::size_t i) const {
    if (full) return full[i];
    return low[i & ((std::size_t(1) << low_log) - 1)] * high[i >> low_log];
  }
#endif
};

template <class Fr>
class Tables {
 public:
  Tables(std::size_t log_n, cudaStream_t stream, TableLayout layout = TableLayout::kFull);
  // With ω_2N = `root_2n`, which must have order exactly 2N (std::invalid_argument otherwise).
  Tables(std::size_t log_n, const Fr& root_2n, cudaStream_t stream, TableLayout layout = TableLayout::kFull);
  // The full layout of these compact tables, made on the device in `stream`'s order (a kernel of a few ms at
  // 2^27) and freed in it: a plan with no room to keep a domain-sized table beside its MSMs holds one only
  // while its NTTs run. std::invalid_argument when these are full already.
  Tables expanded(cudaStream_t stream) const;
  std::size_t log_n() const { return log_n_; }
  std::size_t n() const { return std::size_t(1) << log_n_; }
  TableLayout layout() const { return layout_; }
  Twiddles<Fr> twiddles() const;
  const Fr& n_inv() const { return n_inv_; }

 private:
  Tables(std::size_t log_n, TableLayout layout, const Fr& n_inv)
      : log_n_(log_n), layout_(layout), n_inv_(n_inv) {}
  std::size_t log_n_;
  TableLayout layout_;
  cuda::DeviceBuffer<Fr> full_, low_, high_;
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

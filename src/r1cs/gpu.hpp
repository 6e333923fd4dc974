// a = A·w, b = B·w, c = C·w on the GPU: the constraint matrices uploaded once (resident while they fit)
// and a sparse matrix–vector product per proof, one thread per row. Results equal the CPU's spmv.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "r1cs/csr.hpp"

namespace cuzk::r1cs::gpu {

template <class Fr>
class DeviceCsr {
 public:
  // Uploads `m`; every column must be below `n_cols` (checked here, so the kernel need not).
  DeviceCsr(const Csr<Fr>& m, std::size_t n_cols, cudaStream_t stream);
  std::size_t rows() const { return rows_; }
  std::size_t nnz() const { return nnz_; }
  std::size_t cols() const { return cols_; }
  const std::uint64_t* row_start() const { return row_start_.data(); }
  const std::uint32_t* col() const { return col_.data(); }
  const Fr* val() const { return val_.data(); }

 private:
  std::size_t rows_, nnz_, cols_;
  cuda::DeviceBuffer<std::uint64_t> row_start_;
  cuda::DeviceBuffer<std::uint32_t> col_;
  cuda::DeviceBuffer<Fr> val_;
};

// out[r] = Σ_k val[k]·w[col[k]] over row r; `w` holds m.cols() values; all in device memory.
template <class Fr>
void spmv(const DeviceCsr<Fr>& m, const Fr* d_w, Fr* d_out, cudaStream_t stream);

}  // namespace cuzk::r1cs::gpu

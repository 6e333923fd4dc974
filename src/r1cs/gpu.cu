#include <algorithm>
#include <stdexcept>

#include "cuda/error.hpp"
#include "ec/bls12_381.hpp"
#include "ec/bn254.hpp"
#include "r1cs/gpu.hpp"

namespace cuzk::r1cs::gpu {

namespace {

template <class Fr>
__global__ void spmv_kernel(const std::uint64_t* start, const std::uint32_t* col, const Fr* val, const Fr* w,
                            std::size_t rows, Fr* out) {
  const std::size_t r = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  Fr acc = Fr::zero();
  for (std::uint64_t k = start[r]; k < start[r + 1]; ++k) acc += val[k] * w[col[k]];
  out[r] = acc;
}

}  // namespace

template <class Fr>
DeviceCsr<Fr>::DeviceCsr(const Csr<Fr>& m, std::size_t n_cols, cudaStream_t stream)
    : rows_(m.rows()),
      nnz_(m.nnz()),
      cols_(n_cols),
      row_start_(m.row_start.size()),
      col_(m.col.size()),
      val_(m.val.size()) {
  if (!m.col.empty() && *std::max_element(m.col.begin(), m.col.end()) >= n_cols)
    throw std::invalid_argument("DeviceCsr: a column is outside the " + std::to_string(n_cols) +
                                " variables");
  row_start_.upload(m.row_start.data(), m.row_start.size(), stream);
  col_.upload(m.col.data(), m.col.size(), stream);
  val_.upload(m.val.data(), m.val.size(), stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));  // the caller may free `m`
}

template <class Fr>
void spmv(const DeviceCsr<Fr>& m, const Fr* d_w, Fr* d_out, cudaStream_t stream) {
  if (m.rows() == 0) return;
  constexpr unsigned kThreads = 256;
  spmv_kernel<Fr><<<static_cast<unsigned>((m.rows() + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      m.row_start(), m.col(), m.val(), d_w, m.rows(), d_out);
  cuda::check_last_launch("r1cs spmv_kernel");
}

#define CUZK_SPMV_INSTANTIATE(Fr) \
  template class DeviceCsr<Fr>;   \
  template void spmv<Fr>(const DeviceCsr<Fr>&, const Fr*, Fr*, cudaStream_t);
CUZK_SPMV_INSTANTIATE(Bn254::Fr)
CUZK_SPMV_INSTANTIATE(Bls12_381::Fr)

}  // namespace cuzk::r1cs::gpu

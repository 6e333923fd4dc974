#include "cuda/download.hpp"

#include <cstring>

#include "cuda/error.hpp"
#include "cuda/staged_upload.hpp"
#include "cuda/staging_cache.hpp"

namespace cuzk::cuda {

void download_and_wait(void* host, const void* device, std::size_t bytes, cudaStream_t stream) {
  if (bytes > 0 && bytes <= StagedUpload::kBufferBytes) {
    StagingLease staging;
    if (staging.data() != nullptr) {
      CUZK_CUDA_CHECK(cudaMemcpyAsync(staging.data(), device, bytes, cudaMemcpyDeviceToHost, stream));
      CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
      std::memcpy(host, staging.data(), bytes);
      return;
    }
  }
  if (bytes > 0) CUZK_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace cuzk::cuda

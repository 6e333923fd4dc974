// bellperson (Filecoin) proofs on the GPU: the same values as groth16::bellperson::prove, byte for byte with
// the same r and s. H runs on the GPU NTT over snarkjs's domain (a, b, c permuted by
// bellperson::snarkjs_position_step, odd coset), then back to coefficients; the five MSMs run on the GPU
// with the key's points uploaded per call (a resident key comes next).
#pragma once

#include <cuda_runtime.h>

#include "groth16/bellperson.hpp"

namespace cuzk::groth16::bellperson::gpu {

Proof<Curve> prove(const io::bellperson::Params& params, const Assignment& w, const Fr& r, const Fr& s,
                   cudaStream_t stream);

}  // namespace cuzk::groth16::bellperson::gpu

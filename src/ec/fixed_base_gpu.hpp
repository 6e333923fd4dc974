// Fixed-base scalar multiplication on the GPU, for the test-only setup of large circuits (issue 6): the
// same 8-bit-window table as ec::FixedBaseTable, uploaded once, one thread per scalar doing ≤ 32 mixed
// additions; results come back in Jacobian form and are normalised on the host in parallel. The scalars go
// in slices sized from free device memory, so any count works. Results equal FixedBaseTable::mul_all.
#pragma once

#include <vector>

#include "ec/fixed_base.hpp"
#include "ec/point.hpp"

namespace cuzk::ec::gpu {

// out[i] = scalars[i]·G on the current device, where `table` is G's table.
template <class C>
std::vector<Affine<C>> fixed_base_mul_all(const FixedBaseTable<C>& table,
                                          const std::vector<typename C::Scalar>& scalars);

}  // namespace cuzk::ec::gpu
